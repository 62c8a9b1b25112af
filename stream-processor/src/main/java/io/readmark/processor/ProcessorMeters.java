package io.readmark.processor;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.readmark.processor.fanout.FanoutBacklog;

import java.util.Collection;
import java.util.function.LongConsumer;

/**
 * The stream processor's own meters, next to those Kafka Streams and Lettuce report: deliveries Redis acknowledged
 * ({@code readmark.deliveries}), writes sent again after Redis failed them ({@code readmark.redis.write.retries}),
 * records sent to the dead-letter topic ({@code readmark.dlq.records}), the big-V backlog
 * ({@code readmark.fanout.pending.followers}) and follows too late for the recent posts ({@code readmark.follows.late}).
 */
public final class ProcessorMeters {

    private final MeterRegistry registry;
    private final FanoutBacklog fanoutBacklog = new FanoutBacklog();
    private final Counter lateFollows;

    public ProcessorMeters(MeterRegistry registry) {
        this.registry = registry;
        lateFollows = Counter.builder("readmark.follows.late")
                .description("Follows processed more than PROCESSOR_RECENT_POST_RETENTION after their time: posts published "
                        + "after such a follow but processed before it are not delivered to the follower")
                .register(registry);
        Gauge.builder("readmark.fanout.pending.followers", fanoutBacklog, FanoutBacklog::pendingFollowers)
                .description("Followers of running big-V fan-outs not yet put into chunks")
                .strongReference(true)
                .register(registry);
    }

    /** Counts the deliveries Redis acknowledged for one application: {@code main} (inline) or {@code fanout} (big-V). */
    LongConsumer deliveries(String role) {
        Counter counter = Counter.builder("readmark.deliveries")
                .description("Deliveries of a blog to a follower that Redis acknowledged, replays included")
                .tag("role", role)
                .register(registry);
        return counter::increment;
    }

    /** Counts the writes one application sends again after Redis failed them: non-zero while Redis is away. */
    LongConsumer redisWriteRetries(String role) {
        Counter counter = Counter.builder("readmark.redis.write.retries")
                .description("Writes sent to Redis again after it failed them (unreachable, timed out, read-only), by application")
                .tag("role", role)
                .register(registry);
        return counter::increment;
    }

    /** One follow processed more than the recent-post retention after its time (it may have missed posts). */
    void lateFollow() {
        lateFollows.increment();
    }

    /** One record sent to the dead-letter topic; {@code reason} must be a bounded category, not the detail. */
    public void deadLettered(String sourceTopic, String reason) {
        deadLetters(sourceTopic, reason).increment();
    }

    /**
     * Registers the dead-letter counter of every topic and reason at zero. A counter that first appears at its
     * first increment shows Prometheus no increase (rate() needs two samples), so the first burst of bad records
     * after a start would never alert.
     */
    void expectDeadLetters(Collection<String> sourceTopics, Collection<String> reasons) {
        for (String topic : sourceTopics) {
            for (String reason : reasons) deadLetters(topic, reason);
        }
    }

    private Counter deadLetters(String sourceTopic, String reason) {
        return Counter.builder("readmark.dlq.records")
                .description("Records sent to the dead-letter topic, by source topic and reason")
                .tag("topic", sourceTopic)
                .tag("reason", reason)
                .register(registry);
    }

    FanoutBacklog fanoutBacklog() {
        return fanoutBacklog;
    }
}
