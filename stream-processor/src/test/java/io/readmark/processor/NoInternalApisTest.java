package io.readmark.processor;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No main source of any module uses an {@code .internals.} package (Kafka's, or any library's): what they hold may
 * change in any release, so a guarantee resting on them could break silently on an upgrade.
 */
class NoInternalApisTest {

    /** An import or a qualified name through a package called {@code internals}. */
    private static final Pattern INTERNALS = Pattern.compile("\\b[a-z]\\w*(\\.[a-z]\\w*)*\\.internals\\.[A-Za-z*]");

    @Test
    void shouldUseNoInternalsPackageInMainSources() throws IOException {
        // Given every main source of the build (tests run in the module's folder; the build's root is its parent)
        Path root = Path.of("").toAbsolutePath().getParent();
        assertThat(root.resolve("pom.xml")).as("the build's root").exists();
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path main : modules.map(module -> module.resolve("src/main/java")).filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.walk(main)) {
                    files.filter(file -> file.toString().endsWith(".java")).forEach(sources::add);
                }
            }
        }
        assertThat(sources).as("main sources found").hasSizeGreaterThan(50)
                .anyMatch(file -> file.endsWith("RedisFirstClientSupplier.java"));

        // Then none of them names an internals package
        List<String> uses = new ArrayList<>();
        for (Path source : sources) {
            List<String> lines = read(source);
            for (int i = 0; i < lines.size(); i++) {
                if (INTERNALS.matcher(lines.get(i)).find()) {
                    uses.add(root.relativize(source) + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertThat(uses).as("uses of internal packages in main sources").isEmpty();
    }

    private static List<String> read(Path source) {
        try {
            return Files.readAllLines(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
