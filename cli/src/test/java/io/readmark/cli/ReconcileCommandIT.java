package io.readmark.cli;

import io.readmark.common.config.Settings;
import io.readmark.infra.SecuredRedis;
import io.readmark.infra.TestInfrastructure;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.redis.RedisEndpoint;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadWriter;
import org.junit.jupiter.api.AutoClose;
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
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code readmark reconcile [--repair]}: flags, report, exit status, on a real Redis (one secured with ACL users and TLS too). */
class ReconcileCommandIT {

    private static final String REDIS_URL = TestInfrastructure.shared().redisUrl();
    @AutoClose
    private static final RedisConnections redis = RedisConnections.connect(REDIS_URL, Duration.ofSeconds(5), false);

    private final String prefix = "cli-" + UUID.randomUUID();
    private final UnreadKeys keys = new UnreadKeys(prefix);
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void shouldExitZeroWhenNoUserDrifted() {
        // Given two users the scripts wrote
        deliver(1, 2);

        // When reconciling
        int status = reconcile();

        // Then it says so and exits 0, with progress on stderr
        assertThat(status).isEqualTo(ReconcileCommand.CLEAN);
        assertThat(out()).startsWith("reconcile: 2 users (").contains("no drift");
        assertThat(err()).startsWith("reconcile  ").contains(" keys ").contains("2 users, 0 drifted");
    }

    @Test
    void shouldExitOneAndNameTheDriftUntilRepairFixesIt() {
        // Given a user whose count is wrong
        deliver(1, 2);
        redis.shared().sync().hset(keys.h(2), "total", "5");

        // When reconciling without repair, then with --repair, then again without
        int found = reconcile();
        String report = out();
        out.reset();
        int repaired = reconcile("--repair");
        String repairReport = out();
        out.reset();
        int again = reconcile();

        // Then the drift is reported with exit 1, repaired with exit 0, and gone afterwards
        assertThat(found).isEqualTo(ReconcileCommand.DRIFT);
        assertThat(report).contains("drift: 1 users", "wrong-total", "user 2: wrong-total, total 5, records 1",
                "run with --repair");
        assertThat(repaired).isEqualTo(ReconcileCommand.CLEAN);
        assertThat(repairReport).contains("drift: 1 users", "repaired: 1 of 1 users");
        assertThat(again).isEqualTo(ReconcileCommand.CLEAN);
        assertThat(out()).contains("no drift");
        assertThat(redis.shared().sync().hget(keys.h(2), "total")).isEqualTo("1");
    }

    @Test
    void shouldReportDriftAsItsOwnRedisUserButRepairOnlyAsTheProcessors(@TempDir Path dir) throws IOException {
        // Given a TLS-only Redis under the documented users, and a user whose count is wrong
        Map<String, String> passwords = Map.of("readmark-processor", "processor-secret-1b2d", "readmark-reconcile", "reconcile-secret-e8f3");
        try (SecuredRedis secured = SecuredRedis.start(passwords);
             RedisConnections processor = RedisConnections.connect(RedisEndpoint.of(secured.url(), "readmark-processor",
                     passwords.get("readmark-processor")).trusting(secured.caFile()), Duration.ofSeconds(5), false)) {
            UnreadKeys documented = new UnreadKeys("rm");
            try (UnreadWriter writer = new UnreadWriter(processor.openBinary(), documented, UnreadLimits.DEFAULTS, 100)) {
                writer.deliver(2, 7, 102, 1_767_225_600_000L);
                writer.awaitAcknowledged();
            }
            processor.shared().sync().hset(documented.h(2), "total", "5");

            // When reconciling as reconcile's user, repairing as it, then repairing as the processor's
            int found = reconcileAs(secured, dir, "readmark-reconcile", passwords);
            int refused = reconcileAs(secured, dir, "readmark-reconcile", passwords, "--repair");
            String afterRefusal = processor.shared().sync().hget(documented.h(2), "total");
            int repaired = reconcileAs(secured, dir, "readmark-processor", passwords, "--repair");

            // Then the drift is found, left alone by the refused repair, and repaired by the processor's user
            assertThat(found).as(err()).isEqualTo(ReconcileCommand.DRIFT);
            assertThat(out()).contains("user 2: wrong-total, total 5, records 1");
            assertThat(refused).isNotEqualTo(ReconcileCommand.CLEAN);
            assertThat(afterRefusal).isEqualTo("5");
            assertThat(repaired).as(err()).isEqualTo(ReconcileCommand.CLEAN);
            assertThat(processor.shared().sync().hget(documented.h(2), "total")).isEqualTo("1");
            assertThat(out() + err()).doesNotContain(passwords.values());
        }
    }

    /** As an operator runs it: user and CA from flags, the password from a file. */
    private int reconcileAs(SecuredRedis secured, Path dir, String user, Map<String, String> passwords, String... more) throws IOException {
        Path password = Files.writeString(dir.resolve(user + ".password"), passwords.get(user));
        List<String> flags = new ArrayList<>(List.of("--redis-url", secured.url(), "--readmark-redis-prefix", "rm",
                "--redis-username", user, "--redis-password-file", password.toString(), "--redis-tls-ca-file", secured.caFile().toString()));
        flags.addAll(List.of(more));
        return reconcile(flags.toArray(String[]::new));
    }

    @Test
    void shouldExitTwoWhenRedisCannotBeReached() {
        int status = ReconcileCommand.run(ReconcileCommand.Config.from(Settings.of(Map.of(),
                Map.of("REDIS_URL", "redis://127.0.0.1:1", "REDIS_TIMEOUT", "PT1S"))), print(out), print(err), false);

        assertThat(status).isEqualTo(ReconcileCommand.TROUBLE);
        assertThat(err()).contains("readmark: reconcile failed: ");
    }

    @Test
    void shouldTakeRepairAsASwitchAndRejectBadSettings() {
        assertThat(CommandLineFlags.parse(List.of("--repair", "--readmark-redis-prefix", "x"), Readmark.RECONCILE_SWITCHES))
                .isEqualTo(Map.of(ReconcileCommand.REPAIR, "true", "READMARK_REDIS_PREFIX", "x"));
        assertThat(ReconcileCommand.Config.from(settings()).repair()).isFalse();
        assertThat(ReconcileCommand.Config.from(settings("--repair")).repair()).isTrue();
        assertThatThrownBy(() -> ReconcileCommand.Config.from(settings("--readmark-redis-prefix", "{x}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prefix");
        assertThatThrownBy(() -> ReconcileCommand.Config.from(settings("--readmark-progress-interval", "soon")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("READMARK_PROGRESS_INTERVAL");
    }

    private void deliver(long... users) {
        try (UnreadWriter writer = new UnreadWriter(redis.openBinary(), keys, UnreadLimits.DEFAULTS, 100)) {
            for (long user : users) writer.deliver(user, 7, 100 + user, 1_767_225_600_000L);
            writer.awaitAcknowledged();
        }
    }

    private int reconcile(String... flags) {
        return ReconcileCommand.run(ReconcileCommand.Config.from(settings(flags)), print(out), print(err), false);
    }

    /** The command's settings as the CLI builds them: flags over the environment. */
    private Settings settings(String... flags) {
        return Settings.of(Map.of(), Map.of("REDIS_URL", REDIS_URL, "READMARK_REDIS_PREFIX", prefix,
                        "READMARK_PROGRESS_INTERVAL", "PT0S"))
                .withOverrides(CommandLineFlags.parse(List.of(flags), Readmark.RECONCILE_SWITCHES));
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
