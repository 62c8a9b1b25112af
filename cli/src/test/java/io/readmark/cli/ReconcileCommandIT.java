package io.readmark.cli;

import io.readmark.common.config.Settings;
import io.readmark.infra.TestInfrastructure;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadWriter;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code readmark reconcile [--repair]}: flags, report, exit status, on a real Redis. */
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
        redis.shared().sync().hset(keys.counts(2), Map.of("7", "5", "total", "5"));

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
        assertThat(report).contains("drift: 1 users", "wrong-count", "user 2: wrong-count, author 7: counts 5, set holds 1",
                "run with --repair");
        assertThat(repaired).isEqualTo(ReconcileCommand.CLEAN);
        assertThat(repairReport).contains("drift: 1 users", "repaired: 1 of 1 users");
        assertThat(again).isEqualTo(ReconcileCommand.CLEAN);
        assertThat(out()).contains("no drift");
        assertThat(redis.shared().sync().hgetall(keys.counts(2))).isEqualTo(Map.of("7", "1", "total", "1"));
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
