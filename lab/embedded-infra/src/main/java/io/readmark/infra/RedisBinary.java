package io.readmark.infra;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import redis.embedded.core.ExecutableProvider;

/**
 * Finds a {@code redis-server} executable: the one on {@code PATH} if any, else the binary bundled in
 * com.github.codemonstur:embedded-redis (extracted once per JVM). Guarantees the returned path is executable.
 */
final class RedisBinary {

    static final String EXECUTABLE = "redis-server";

    private static Path bundled;

    private RedisBinary() {
    }

    /** The system {@code redis-server} if installed, else the bundled one. */
    static Path locate() {
        return onPath(System.getenv("PATH")).orElseGet(RedisBinary::bundled);
    }

    /** The first executable {@code redis-server} in the given PATH-style list, if any. */
    static Optional<Path> onPath(String pathVariable) {
        if (pathVariable == null || pathVariable.isBlank()) {
            return Optional.empty();
        }
        for (String dir : pathVariable.split(File.pathSeparator)) {
            if (dir.isBlank()) {
                continue;
            }
            Path candidate = Path.of(dir, EXECUTABLE);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The binary shipped inside embedded-redis for this OS/arch (Redis 6.2 on linux-amd64). */
    static synchronized Path bundled() {
        // Extracted lazily (a large copy) and only once per JVM; a failure is not cached, so a later call retries.
        if (bundled == null) {
            try {
                File file = ExecutableProvider.newJarResourceProvider().get();
                file.deleteOnExit();
                bundled = file.toPath();
            } catch (IOException e) {
                throw new UncheckedIOException("Could not extract the redis-server bundled with embedded-redis", e);
            } catch (RuntimeException e) {
                // embedded-redis detects the platform by running `uname`; say which fallback failed.
                throw new IllegalStateException("No redis-server on PATH and the one bundled with embedded-redis"
                        + " is not usable on this platform: " + e.getMessage(), e);
            }
        }
        return bundled;
    }
}
