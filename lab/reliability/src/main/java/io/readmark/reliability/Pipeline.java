package io.readmark.reliability;

import io.readmark.infra.KafkaTopics;
import io.readmark.schemas.Topics;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Where one harness run's pipeline lives (Kafka, Redis, its names) and the settings every processor process of the
 * run gets. Caps are far above what a workload reaches, so that the expected state stays exact. The event topics and
 * the processor's internal author topic all have different partition counts, as nothing requires them to agree.
 */
public record Pipeline(String bootstrapServers, String redisUrl, RunNames names, int partitions) {

    /**
     * The broker's lowest allowed session timeout: a SIGKILLed member's partitions move to the others after 6 s
     * instead of Kafka's default 45 s.
     */
    public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(6);
    /** Every cap of the run's processors: far above what a workload reaches (ExpectedUnread stops if one would bind). */
    public static final int NO_CAP = 1_000_000;

    public Topics topics() {
        return names.topics();
    }

    /**
     * The blog-event and fan-out topics with {@link #partitions()} partitions, follow events with two more, read events
     * with four more, the dead-letter topic with one, notice events like blog events.
     */
    public void createTopics() {
        Topics topics = topics();
        KafkaTopics.createTopics(bootstrapServers, Map.of(
                topics.blogEvents().name(), partitions,
                topics.followEvents().name(), followPartitions(),
                topics.readEvents().name(), readPartitions(),
                topics.deadLetters().name(), 1,
                topics.fanoutChunks().name(), partitions,
                topics.noticeEvents().name(), partitions));
    }

    public int followPartitions() {
        return partitions + 2;
    }

    public int readPartitions() {
        return partitions + 4;
    }

    /** The processor's internal topic of follow and blog events, by author. */
    public int authorPartitions() {
        return partitions + 1;
    }

    /** Settings of a processor process of this run; the port and state dir are the process's own. */
    public Map<String, String> processorEnvironment(int bigVThreshold) {
        Topics topics = topics();
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
        env.put("REDIS_URL", redisUrl);
        env.put("READMARK_REDIS_PREFIX", names.redisPrefix());
        env.put("READMARK_TOPIC_BLOG_EVENTS", topics.blogEvents().name());
        env.put("READMARK_TOPIC_FOLLOW_EVENTS", topics.followEvents().name());
        env.put("READMARK_TOPIC_READ_EVENTS", topics.readEvents().name());
        env.put("READMARK_TOPIC_DLQ", topics.deadLetters().name());
        env.put("READMARK_TOPIC_FANOUT", topics.fanoutChunks().name());
        env.put("READMARK_TOPIC_NOTICE_EVENTS", topics.noticeEvents().name());
        env.put("PROCESSOR_APPLICATION_ID", names.applicationId());
        env.put("PROCESSOR_ROLES", "main,fanout");
        env.put("PROCESSOR_AUTHOR_PARTITIONS", Integer.toString(authorPartitions()));
        env.put("PROCESSOR_SESSION_TIMEOUT", SESSION_TIMEOUT.toString());
        env.put("PROCESSOR_BIGV_THRESHOLD", Integer.toString(bigVThreshold));
        // Small chunks, one per tick, so that one big-V post is several chunks over a quarter of a second and a crash
        // or a broker kill can fall between them.
        env.put("PROCESSOR_FANOUT_CHUNK_SIZE", "40");
        env.put("PROCESSOR_FANOUT_CHUNKS_PER_TICK", "1");
        env.put("READMARK_MAX_UNREAD_PER_AUTHOR", Integer.toString(NO_CAP));
        env.put("READMARK_MAX_UNREAD_PER_USER", Integer.toString(NO_CAP));
        env.put("READMARK_MAX_READ_MARKS_PER_USER", Integer.toString(NO_CAP));
        env.put("PROCESSOR_HTTP_HOST", "127.0.0.1");
        return env;
    }
}
