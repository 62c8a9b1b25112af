package io.readmark.reliability;

import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.rebuild.Rebuild;
import io.readmark.processor.rebuild.RebuildSummary;
import io.readmark.store.ReconcileReport;
import io.readmark.store.Reconciler;
import io.readmark.store.RedisConnections;
import io.readmark.store.UnreadKeys;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * Redis loses everything (FLUSHALL) and the operators' repairs bring it back: {@link Rebuild} replays Kafka into it
 * with the processors' own settings while the processors keep running, then the state is compared with the model
 * and {@link Reconciler} checks every user's counts against their sets. Call once the pipeline drained.
 */
public final class RedisLossRecovery {

    /** What the rebuild replayed and how long it took, the comparison with the model after it, and the reconcile. */
    public record Outcome(RebuildSummary rebuild, CheckResult check, ReconcileReport reconcile) {

        /** The rebuilt state exactly the model's and no user's counts drifted from their sets. */
        public boolean exact() {
            return check.exact() && reconcile.clean();
        }
    }

    private RedisLossRecovery() {
    }

    /** @param stateDir where the rebuild keeps the follower graph while it runs */
    public static Outcome run(Harness harness, Path stateDir) throws InterruptedException {
        ProcessorConfig config = harness.processorConfig(stateDir);
        try (RedisConnections redis = RedisConnections.connect(config.redisUrl(), config.redisTimeout(), false)) {
            redis.shared().sync().flushall();
        }
        RebuildSummary rebuilt = new Rebuild(config, Instant.now()).run((applied, total, pass) -> { });
        CheckResult check = harness.check();
        try (RedisConnections redis = RedisConnections.connect(config.redisUrl(), Duration.ofSeconds(10), false)) {
            ReconcileReport reconcile = new Reconciler(redis, new UnreadKeys(config.redisPrefix()),
                    config.limits().maxUnreadPerAuthor()).run(false, (keys, users, drifted, pass) -> { });
            return new Outcome(rebuilt, check, reconcile);
        }
    }
}
