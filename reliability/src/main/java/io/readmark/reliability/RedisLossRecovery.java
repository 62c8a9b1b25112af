package io.readmark.reliability;

import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.rebuild.Rebuild;
import io.readmark.processor.rebuild.RebuildSummary;
import io.readmark.store.ReconcileReport;
import io.readmark.store.Reconciler;
import io.readmark.store.RedisConnections;
import io.readmark.store.UnreadKeys;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Redis loses everything (FLUSHALL) and the operators' repairs bring it back: {@link Rebuild} replays Kafka into it
 * with the processors' own settings while the processors keep running and must leave nothing behind (consumer groups,
 * internal topics, state folders); then the state is compared with the model and {@link Reconciler} checks every
 * user's counts against their sets. Call once the pipeline drained.
 */
public final class RedisLossRecovery {

    /**
     * What the rebuild replayed and how long it took, the comparison with the model after it, the reconcile, and the
     * names left in Kafka or on disk by any rebuild afterwards (none expected).
     */
    public record Outcome(RebuildSummary rebuild, CheckResult check, ReconcileReport reconcile, List<String> leftovers) {

        /** The rebuilt state exactly the model's and no user's counts drifted from their sets. */
        public boolean exact() {
            return check.exact() && reconcile.clean();
        }

        /** Nothing left in Kafka or on disk by the rebuild. */
        public boolean cleanedUp() {
            return leftovers.isEmpty();
        }
    }

    private static final long ADMIN_TIMEOUT_SECONDS = 30;

    private RedisLossRecovery() {
    }

    /** @param stateDir where the rebuild keeps the follower graph while it runs */
    public static Outcome run(Harness harness, Path stateDir) throws InterruptedException {
        ProcessorConfig config = harness.processorConfig(stateDir);
        try (RedisConnections redis = RedisConnections.connect(config.redisUrl(), config.redisTimeout(), false)) {
            redis.shared().sync().flushall();
        }
        RebuildSummary rebuilt = new Rebuild(config, Instant.now()).run((applied, total, pass) -> { });
        return new Outcome(rebuilt, harness.check(), reconcile(config), leftovers(config, stateDir));
    }

    private static ReconcileReport reconcile(ProcessorConfig config) throws InterruptedException {
        try (RedisConnections redis = RedisConnections.connect(config.redisUrl(), Duration.ofSeconds(10), false)) {
            return new Reconciler(redis, new UnreadKeys(config.redisPrefix()), config.limits().maxUnreadPerAuthor())
                    .run(false, (keys, users, drifted, pass) -> { });
        }
    }

    /** Every consumer group, topic and state folder of any rebuild still there. */
    private static List<String> leftovers(ProcessorConfig config, Path stateDir) {
        String prefix = config.applicationId() + "-rebuild-";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers()));
             Stream<Path> folders = Files.exists(stateDir) ? Files.list(stateDir) : Stream.empty()) {
            List<String> left = new ArrayList<>();
            admin.listGroups().all().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS).stream().map(GroupListing::groupId).forEach(left::add);
            left.addAll(admin.listTopics().names().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS));
            folders.map(folder -> folder.getFileName().toString()).forEach(left::add);
            return left.stream().filter(name -> name.startsWith(prefix)).toList();
        } catch (Exception e) {
            throw new IllegalStateException("cannot list what the rebuilds left", e);
        }
    }
}
