package io.readmark.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KRaftStorageTest {

    @Test
    void formatsAnEmptyDirLikeKafkaStorageFormat(@TempDir Path tmp) throws Exception {
        Path logDir = tmp.resolve("kraft");

        String clusterId = KRaftStorage.formatIfNeeded(logDir, 1, "CONTROLLER");

        assertThat(clusterId).isNotBlank();
        assertThat(Files.readAllLines(logDir.resolve("meta.properties")))
                .contains("cluster.id=" + clusterId, "node.id=1", "version=1")
                .anyMatch(l -> l.startsWith("directory.id="));
        assertThat(logDir.resolve("bootstrap.checkpoint")).isNotEmptyFile();
        assertThat(KRaftStorage.isFormatted(logDir)).isTrue();
    }

    @Test
    void leavesAFormattedDirAlone(@TempDir Path tmp) throws Exception {
        Path logDir = tmp.resolve("kraft");
        KRaftStorage.formatIfNeeded(logDir, 1, "CONTROLLER");
        String before = Files.readString(logDir.resolve("meta.properties"));

        assertThat(KRaftStorage.formatIfNeeded(logDir, 1, "CONTROLLER")).isNull();
        assertThat(Files.readString(logDir.resolve("meta.properties"))).isEqualTo(before);
    }
}
