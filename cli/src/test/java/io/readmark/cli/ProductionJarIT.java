package io.readmark.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * cli/target/readmark.jar, what every image runs, holds what production runs and nothing of the developer tools: no
 * embedded broker, test infrastructure, harness or Redis binaries, and at most 40 MB. An integration test, so that
 * {@code package} has built the jar when it runs.
 */
class ProductionJarIT {

    private static final Path JAR = Path.of("target", "readmark.jar");
    private static final long MAX_BYTES = 40_000_000;

    /** Entries under these belong to tests, the dev tools or a Kafka broker. */
    private static final List<String> FORBIDDEN = List.of(
            "org/testcontainers/", "com/github/dockerjava/", "org/junit/", "org/assertj/", "org/awaitility/",
            "scala/", "org/apache/kafka/raft/", "org/apache/kafka/metadata/", "org/apache/kafka/controller/",
            "org/apache/kafka/coordinator/", "org/apache/kafka/image/", "org/apache/kafka/storage/",
            "redis/embedded/",
            "io/readmark/infra/", "io/readmark/testing/", "io/readmark/launcher/", "io/readmark/bench/", "io/readmark/reliability/",
            "io/readmark/dev/");
    /** kafka-clients' plugin interfaces; the rest of {@code org/apache/kafka/server/} is the broker's. */
    private static final List<String> CLIENT_SERVER_API = List.of("authorizer/", "policy/", "quota/", "telemetry/");

    /** The native libraries the images (Linux x86-64 and aarch64) load; the shade filters keep only these. */
    private static final List<String> NATIVE_LIBRARIES = List.of(
            "librocksdbjni-linux64.so", "librocksdbjni-linux-aarch64.so",
            "linux/amd64/libzstd-jni-", "linux/aarch64/libzstd-jni-",
            "org/xerial/snappy/native/Linux/x86_64/", "org/xerial/snappy/native/Linux/aarch64/",
            "net/jpountz/util/linux/amd64/", "net/jpountz/util/linux/aarch64/");

    @Test
    void shouldHoldNoTestInfrastructureHarnessOrBroker() throws IOException {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            List<String> names = jar.stream().map(ZipEntry::getName).toList();

            List<String> forbidden = names.stream().filter(ProductionJarIT::isForbidden).toList();
            // The count and a few names: a jar that pulls a broker in has thousands.
            assertThat(forbidden.size()).as("entries of %s that belong to tests, the dev tools or a Kafka broker, e.g. %s",
                    JAR, forbidden.stream().limit(20).toList()).isZero();
            assertThat(names).as("classes of %s", JAR).contains("io/readmark/cli/Readmark.class",
                    "io/readmark/processor/StreamProcessor.class", "io/readmark/producer/ProducerApi.class", "io/readmark/view/ViewApi.class");
            assertThat(NATIVE_LIBRARIES).as("native libraries in %s", JAR)
                    .allSatisfy(prefix -> assertThat(names).anyMatch(name -> name.startsWith(prefix) && !name.endsWith("/")));
            Manifest manifest = jar.getManifest();
            assertThat(manifest.getMainAttributes().getValue("Main-Class")).isEqualTo(Readmark.class.getName());
        }
    }

    @Test
    void shouldStayWithin40Megabytes() throws IOException {
        assertThat(Files.size(JAR)).as("bytes of %s", JAR).isLessThanOrEqualTo(MAX_BYTES);
    }

    private static boolean isForbidden(String name) {
        if (name.endsWith("/")) return false; // a folder; what is in it is checked
        String file = name.substring(name.lastIndexOf('/') + 1);
        return FORBIDDEN.stream().anyMatch(name::startsWith)
                // the Scala broker; kafka-clients keeps only kafka/kafka-version.properties there
                || (name.startsWith("kafka/") && name.endsWith(".class"))
                || (name.startsWith("org/apache/kafka/server/")
                        && CLIENT_SERVER_API.stream().noneMatch(api -> name.startsWith("org/apache/kafka/server/" + api)))
                || file.startsWith("redis-server");
    }
}
