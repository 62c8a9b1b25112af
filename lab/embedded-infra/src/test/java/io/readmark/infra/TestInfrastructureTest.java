package io.readmark.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import org.junit.jupiter.api.Test;

class TestInfrastructureTest {

    @Test
    void externalAddressesFromTheEnvironmentStartNothing() {
        try (TestInfrastructure.Started started = TestInfrastructure.start(Map.of(
                TestInfrastructure.KAFKA_ENV, " broker-1:9092,broker-2:9092 ",
                TestInfrastructure.REDIS_ENV, "redis://cache:6379"))) {
            assertThat(started.infrastructure())
                    .isEqualTo(new Infrastructure("broker-1:9092,broker-2:9092", "redis://cache:6379"));
            assertThat(started.resources()).isEmpty();
        }
    }

    @Test
    void testcontainersClassesAreNotLoadedUnlessThatBackendIsChosen() throws Exception {
        // A fresh class loader over the test class path, so classes loaded by other tests do not count.
        URL[] classPath = Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .map(p -> {
                    try {
                        return Path.of(p).toUri().toURL();
                    } catch (java.net.MalformedURLException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .toArray(URL[]::new);
        try (ProbingLoader loader = new ProbingLoader(classPath)) {
            Class<?> infra = loader.loadClass(TestInfrastructure.class.getName());
            Method start = infra.getDeclaredMethod("start", Map.class);
            start.setAccessible(true);
            Object started = start.invoke(null, Map.of(
                    TestInfrastructure.MODE_ENV, TestInfrastructure.MODE_TESTCONTAINERS,
                    TestInfrastructure.KAFKA_ENV, "localhost:9092",
                    TestInfrastructure.REDIS_ENV, "redis://127.0.0.1:6379"));
            ((AutoCloseable) started).close();

            assertThat(loader.loaded("io.readmark.infra.TestInfrastructure")).isTrue();
            assertThat(loader.loaded("org.testcontainers.DockerClientFactory")).isFalse();
            assertThat(loader.loaded("org.testcontainers.containers.GenericContainer")).isFalse();
            assertThat(loader.loaded("io.readmark.infra.ContainerInfrastructure")).isFalse();
        }
    }

    @Test
    void testcontainersAskedForWithoutAnEngineFailsInsteadOfRunningEmbedded() {
        assertThatThrownBy(() -> TestInfrastructure.start(Map.of(
                TestInfrastructure.MODE_ENV, TestInfrastructure.MODE_TESTCONTAINERS), () -> false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("READMARK_TEST_INFRA=testcontainers but no container engine answers");
    }

    @Test
    void infrastructureRejectsBlankAddresses() {
        assertThatThrownBy(() -> new Infrastructure(" ", "redis://x:1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Infrastructure("x:1", null)).isInstanceOf(NullPointerException.class);
    }

    /** Child-first loader for our own package, so TestInfrastructure and its dependencies load here. */
    private static final class ProbingLoader extends URLClassLoader {
        ProbingLoader(URL[] urls) {
            super(urls, ClassLoader.getPlatformClassLoader());
        }

        boolean loaded(String name) {
            return findLoadedClass(name) != null;
        }
    }
}
