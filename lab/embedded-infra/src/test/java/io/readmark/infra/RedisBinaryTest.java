package io.readmark.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedisBinaryTest {

    @Test
    void findsTheFirstExecutableOnThePath(@TempDir Path tmp) throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Path notExecutable = Files.createDirectories(tmp.resolve("plain"));
        Files.writeString(notExecutable.resolve("redis-server"), "");
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path server = Files.writeString(bin.resolve("redis-server"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(server, PosixFilePermissions.fromString("rwxr-xr-x"));

        String path = String.join(File.pathSeparator, empty.toString(), "", notExecutable.toString(), bin.toString());
        assertThat(RedisBinary.onPath(path)).contains(server);
    }

    @Test
    void emptyOrMissingPathFindsNothing(@TempDir Path tmp) {
        assertThat(RedisBinary.onPath(null)).isEmpty();
        assertThat(RedisBinary.onPath("")).isEmpty();
        assertThat(RedisBinary.onPath(tmp.toString())).isEmpty();
    }

    @Test
    void bundledBinaryIsExtractedOnceAndExecutable() {
        Path first = RedisBinary.bundled();
        assertThat(first).isExecutable();
        assertThat(RedisBinary.bundled()).isSameAs(first);
    }
}
