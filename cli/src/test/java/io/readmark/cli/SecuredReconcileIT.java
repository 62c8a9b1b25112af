package io.readmark.cli;

import io.readmark.common.config.Settings;
import io.readmark.infra.DocumentedRedisUsers;
import io.readmark.infra.EmbeddedRedis;
import io.readmark.infra.TlsCertificates;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.redis.RedisEndpoint;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code readmark reconcile} on a TLS-only Redis under the documented ACL users: its own user reports drift but
 * cannot repair it; {@code --repair} takes the processor's user.
 */
class SecuredReconcileIT {

    private static final String PROCESSOR = "readmark-processor";
    private static final String RECONCILE = "readmark-reconcile";
    private static final String PROCESSOR_PASSWORD = "processor-secret-1b2d";
    private static final String RECONCILE_PASSWORD = "reconcile-secret-e8f3";

    private static final TlsCertificates CERTIFICATES = TlsCertificates.create();
    private static final EmbeddedRedis REDIS = EmbeddedRedis.startTls(CERTIFICATES,
            DocumentedRedisUsers.serverArgs(Map.of(PROCESSOR, PROCESSOR_PASSWORD, RECONCILE, RECONCILE_PASSWORD)));

    private final UnreadKeys keys = new UnreadKeys("rm");
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    @AfterAll
    static void stop() {
        REDIS.close();
        CERTIFICATES.close();
    }

    @Test
    void shouldReportDriftAsItsOwnUserAndRepairOnlyAsTheProcessors() throws IOException {
        try (RedisConnections processor = RedisConnections.connect(
                RedisEndpoint.of(REDIS.url(), PROCESSOR, PROCESSOR_PASSWORD).trusting(CERTIFICATES.caFile()), Duration.ofSeconds(5), false)) {
            try (UnreadWriter writer = new UnreadWriter(processor.openBinary(), keys, UnreadLimits.DEFAULTS, 100)) {
                writer.deliver(2, 7, 102, 1_767_225_600_000L);
                writer.awaitAcknowledged();
            }
            processor.shared().sync().hset(keys.counts(2), Map.of("7", "5", "total", "5"));

            int found = reconcile(RECONCILE, RECONCILE_PASSWORD);
            int refused = reconcile(RECONCILE, RECONCILE_PASSWORD, "--repair");
            Map<String, String> afterRefusal = processor.shared().sync().hgetall(keys.counts(2));
            int repaired = reconcile(PROCESSOR, PROCESSOR_PASSWORD, "--repair");

            assertThat(found).as(err()).isEqualTo(ReconcileCommand.DRIFT);
            assertThat(out()).contains("user 2: wrong-count, author 7: counts 5, set holds 1");
            assertThat(refused).isNotEqualTo(ReconcileCommand.CLEAN);
            assertThat(afterRefusal).isEqualTo(Map.of("7", "5", "total", "5"));
            assertThat(repaired).as(err()).isEqualTo(ReconcileCommand.CLEAN);
            assertThat(processor.shared().sync().hgetall(keys.counts(2))).isEqualTo(Map.of("7", "1", "total", "1"));
            assertThat(out() + err()).doesNotContain(RECONCILE_PASSWORD).doesNotContain(PROCESSOR_PASSWORD);
        }
    }

    /** As the CLI runs it: the user and CA from flags, the password from a file. */
    private int reconcile(String user, String password, String... more) throws IOException {
        Path file = Files.writeString(dir.resolve(user + ".password"), password);
        List<String> flags = new ArrayList<>(List.of("--redis-username", user, "--redis-password-file", file.toString(),
                "--redis-tls-ca-file", CERTIFICATES.caFile().toString()));
        flags.addAll(List.of(more));
        Settings settings = Settings.of(Map.of(), Map.of("REDIS_URL", REDIS.url(), "READMARK_PROGRESS_INTERVAL", "PT0S"))
                .withOverrides(CommandLineFlags.parse(flags, Readmark.RECONCILE_SWITCHES));
        return ReconcileCommand.run(ReconcileCommand.Config.from(settings), print(out), print(err), false);
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
