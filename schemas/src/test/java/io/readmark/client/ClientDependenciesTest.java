package io.readmark.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * A blog service that depends on this module gets kafka-clients and Jackson, nothing of the services: no settings,
 * no JWT library, no metrics registry. Checked on the declared dependencies of this pom and of its parent.
 */
class ClientDependenciesTest {

    @Test
    void onlyKafkaClientsAndJacksonReachABlogService() throws Exception {
        assertThat(shippedDependencies(Path.of("pom.xml"))).containsExactlyInAnyOrder(
                "org.apache.kafka:kafka-clients",
                "com.fasterxml.jackson.core:jackson-databind",
                "com.fasterxml.jackson.datatype:jackson-datatype-jsr310");
    }

    @Test
    void theParentAddsNothingButTestLibraries() throws Exception {
        assertThat(shippedDependencies(Path.of("..", "pom.xml"))).isEmpty();
    }

    /** groupId:artifactId of each direct dependency in a scope a depending project inherits (not test, not provided). */
    private static List<String> shippedDependencies(Path pom) throws Exception {
        Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
        List<String> shipped = new ArrayList<>();
        for (Element dependencies : children(project, "dependencies")) {
            for (Element dependency : children(dependencies, "dependency")) {
                String scope = text(dependency, "scope");
                if (scope.equals("test") || scope.equals("provided")) continue;
                shipped.add(text(dependency, "groupId") + ":" + text(dependency, "artifactId"));
            }
        }
        return shipped;
    }

    /** Direct children only, so that {@code dependencyManagement} and plugin dependencies are not counted. */
    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i) instanceof Element element && element.getTagName().equals(name)) found.add(element);
        }
        return found;
    }

    private static String text(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? "" : found.getFirst().getTextContent().trim();
    }
}
