package io.readmark.reliability;

import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.rebuild.Rebuild;
import io.readmark.processor.rebuild.RebuildSummary;
import io.readmark.store.reconcile.ReconcileReport;
import io.readmark.store.reconcile.Reconciler;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;

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
 * Redis loses everything (FLUSHALL) and the operators' repairs bring it back: a first {@link Rebuild}, in a process of
 * its own, is SIGKILLed once it applied an eighth of its records, leaving part of its writes in Redis and its consumer
 * groups, internal topics and state folders behind; once its session expired, a second one replays Kafka with the
 * processors' own settings while the processors keep running, and must remove what the first left. Then the state is
 * compared with the model and {@link Reconciler} checks every user's counts against their sets. Call once the
 * pipeline drained.
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

        /** The killed rebuild's leftovers removed by the second one, and nothing left by any rebuild. */
        public boolean cleanedUp() {
            return rebuild.leftoversRemoved().size() == 1 && leftovers.isEmpty();
        }
    }

    private static final long ADMIN_TIMEOUT_SECONDS = 30;
    private static final Duration STALLED = Duration.ofMinutes(5);
    private static final Duration POLL = Duration.ofMillis(200);

    private RedisLossRecovery() {
    }

    /** @param stateDir where the rebuild keeps the follower graph while it runs */
    public static Outcome run(Harness harness, Path stateDir) throws InterruptedException {
        ProcessorConfig config = harness.processorConfig(stateDir);
        try (RedisConnections redis = RedisConnections.connect(config.redis(), config.redisTimeout(), false)) {
            redis.shared().sync().flushall();
        }
        killAtAnEighth(harness, stateDir);
        // Until the killed rebuild's session expires its groups still have a member, and a rebuild leaves them be.
        Poll.until(() -> rebuildGroupsWithMembers(config) == 0, Rebuild.SESSION_TIMEOUT.multipliedBy(3), POLL,
                () -> "the killed rebuild's groups still have members");
        RebuildSummary rebuilt = new Rebuild(config, Instant.now()).run((applied, total, pass) -> { });
        return new Outcome(rebuilt, harness.check(), reconcile(config), leftovers(config, stateDir));
    }

    /**
     * Starts a rebuild in a process of its own and SIGKILLs it once it applied an eighth of its records, early in its
     * first pass, where its progress counts the input records whose re-partitioned copies are still being fanned
     * out; fails when it ends first or its progress stands still for {@link #STALLED}, however long that takes.
     */
    private static void killAtAnEighth(Harness harness, Path stateDir) {
        try (ChildJvm rebuild = new ChildJvm("rebuild", harness.workDir().resolve("killed-rebuild.log"))) {
            rebuild.start(List.of("-Xmx384m", "-XX:+UseSerialGC"), ChildRebuildMain.class, List.of(),
                    harness.processorEnvironment(stateDir), "rebuild, to be killed midway");
            long[] lastApplied = {-1};
            long[] movedAt = {System.nanoTime()};
            Poll.until(() -> {
                List<long[]> progress = rebuild.log().lines().filter(line -> line.startsWith(ChildRebuildMain.APPLIED))
                        .map(RedisLossRecovery::appliedOfTotal).toList();
                if (progress.stream().anyMatch(appliedOfTotal -> 8 * appliedOfTotal[0] >= appliedOfTotal[1])) return true;
                if (!rebuild.isAlive()) throw new IllegalStateException("the rebuild to kill ended first:\n" + rebuild.logTail(20));
                long applied = progress.isEmpty() ? -1 : progress.getLast()[0];
                if (applied > lastApplied[0]) {
                    lastApplied[0] = applied;
                    movedAt[0] = System.nanoTime();
                } else if (System.nanoTime() - movedAt[0] > STALLED.toNanos()) {
                    throw new IllegalStateException("the rebuild to kill made no progress for " + STALLED.toSeconds() + " s:\n"
                            + rebuild.logTail(20));
                }
                return false;
            }, Duration.ofDays(1), POLL, () -> "the rebuild to kill did not reach an eighth:\n" + rebuild.logTail(20));
            rebuild.kill(Duration.ofSeconds(30));
        }
    }

    /** A progress line of the child, {@code rebuild applied <records> of <total>}, as {records, total}. */
    private static long[] appliedOfTotal(String line) {
        String[] parts = line.substring(ChildRebuildMain.APPLIED.length()).split(" of ");
        return new long[]{Long.parseLong(parts[0].strip()), Long.parseLong(parts[1].strip())};
    }

    private static long rebuildGroupsWithMembers(ProcessorConfig config) {
        String prefix = config.applicationId() + "-rebuild-";
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers()))) {
            List<String> groups = admin.listGroups().all().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS).stream()
                    .map(GroupListing::groupId).filter(group -> group.startsWith(prefix)).toList();
            if (groups.isEmpty()) return 0;
            return admin.describeConsumerGroups(groups).all().get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS).values().stream()
                    .filter(group -> !group.members().isEmpty()).count();
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe the rebuilds' groups", e);
        }
    }

    private static ReconcileReport reconcile(ProcessorConfig config) throws InterruptedException {
        try (RedisConnections redis = RedisConnections.connect(config.redis(), Duration.ofSeconds(10), false)) {
            return new Reconciler(redis, new UnreadKeys(config.redisPrefix()), config.limits().maxUnreadPerAuthor(),
                    config.limits().maxUnreadPerUser())
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
