package io.readmark.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Private temp directories for broker logs and redis working dirs; guarantees best-effort recursive deletion. */
final class TempDirs {

    private TempDirs() {
    }

    static Path create(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create a temp directory " + prefix, e);
        }
    }

    /** Deletes {@code dir} and everything below it; missing files are fine, other errors are swallowed. */
    static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(TempDirs::deleteQuietly);
        } catch (IOException | UncheckedIOException e) {
            // Leftovers in the system temp dir are harmless; failing a close() over them is not.
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // See deleteRecursively: best effort only.
        }
    }
}
