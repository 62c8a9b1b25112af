package io.readmark.processor;

import io.readmark.common.config.KafkaClientSettings;
import io.readmark.common.config.Settings;
import io.readmark.processor.deadletters.DeadLetterSendFailures;
import io.readmark.processor.fanout.FanoutSettings;
import io.readmark.processor.graph.BigVPolicy;
import io.readmark.schemas.EventTimeLimit;
import io.readmark.schemas.Topics;
import io.readmark.store.redis.RedisEndpoint;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.notice.NoticeLimits;
import io.readmark.store.unread.UnreadLimits;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Everything the stream processor can be told, with defaults for a local run. One process runs the main
 * topology, the big-V fan-out worker, or both ({@code PROCESSOR_ROLES}), so the worker can be scaled on its own.
 * {@code httpHost}/{@code httpPort} are where health and metrics are served (port 0: any free one).
 * {@code sessionTimeout} is how long the group waits for a silent member (a crashed host) before its partitions move.
 * {@code authorPartitions} is the partition count of the internal topic that brings an author's follows and posts
 * together: the most stream threads, over all instances, that the author path can use. {@code eventTimes} bounds how far
 * past its record's timestamp an event may be dated. {@code kafkaClient} is passed on to every Kafka client (security,
 * TLS, SASL) under the processor's own settings. {@code waitReplicas} is how many replicas of each Redis master must
 * have a thread's writes before its offsets commit (0: none, for a Redis without replicas). {@code layoutUpgrade}: every
 * writer converts a user still on the Redis layout before z and h before it writes to them, so a user that
 * {@code readmark migrate} has not reached yet keeps its old keys as they were (on while an upgrade runs).
 */
public record ProcessorConfig(String bootstrapServers, RedisEndpoint redis, String redisPrefix, Topics topics,
                              String applicationId, int streamThreads, int authorPartitions, Duration commitInterval, Path stateDir,
                              UnreadLimits limits, int maxPendingWrites, int waitReplicas, boolean layoutUpgrade, Duration redisTimeout,
                              FanoutSettings fanout, boolean runMain, boolean runFanoutWorker,
                              int fanoutWorkerThreads, int fanoutDeliveriesPerSecond, int fanoutBurst,
                              String httpHost, int httpPort, Duration sessionTimeout, EventTimeLimit eventTimes,
                              KafkaClientSettings kafkaClient) {

    /**
     * How many writes the fan-out worker sends at a time; it waits until every earlier burst is answered, so a normal
     * author's write and read queue behind at most two bursts in Redis. A burst of deliveries goes out as one script
     * (per slot on a cluster), and Redis runs it whole, so a small burst keeps a normal author's commands from waiting
     * long; with fewer deliveries in flight Redis waits for the worker more often, so the fan-out is slower
     * (docs/big-v.md, "The path").
     */
    public static final int DEFAULT_FANOUT_BURST = 20;
    /**
     * A ceiling per worker process, not the pace: the worker waits for Redis's answer to every burst but the newest,
     * so Redis's answers set its rate.
     */
    public static final int DEFAULT_FANOUT_DELIVERIES_PER_SECOND = 100_000;
    /** Kafka's own default: a member silent this long is dropped from the group and its partitions reassigned. */
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(45);
    /** Room for three instances of two stream threads; fixed for the life of a deployment (see the README's upgrade notes). */
    public static final int DEFAULT_AUTHOR_PARTITIONS = 6;
    /**
     * Every follow and post passes the producer on its way to the internal author topic, so its linger adds to every
     * publish-to-visible time (Kafka Streams' default is 100 ms). Batches still form under load while earlier sends are
     * in flight (docs/BENCHMARKS.md).
     */
    private static final int PRODUCER_LINGER_MS = 1;
    /** Replicas that must have every write before offsets commit: what makes a Redis failover lose nothing. */
    public static final String WAIT_REPLICAS = "READMARK_REDIS_WAIT_REPLICAS";
    /**
     * Whether writers convert a user of the layout before z and h before writing to them: during an upgrade, so no
     * write of this release lands on a user {@code readmark migrate} has not converted yet.
     */
    public static final String LAYOUT_UPGRADE = "READMARK_LAYOUT_UPGRADE";

    public ProcessorConfig {
        if (httpPort < 0 || httpPort > 65_535) {
            throw new IllegalArgumentException("PROCESSOR_HTTP_PORT must be between 0 and 65535, was " + httpPort);
        }
        if (waitReplicas < 0) {
            throw new IllegalArgumentException(WAIT_REPLICAS + " must be 0 or more, was " + waitReplicas);
        }
        if (fanoutBurst <= 0) throw new IllegalArgumentException("PROCESSOR_FANOUT_BURST must be positive, was " + fanoutBurst);
        // The broker refuses a join outside its group.min/max.session.timeout.ms (6 s to 30 min by default).
        if (sessionTimeout.toMillis() <= 0 || sessionTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("PROCESSOR_SESSION_TIMEOUT must be a positive duration, was " + sessionTimeout);
        }
    }

    public static ProcessorConfig from(Settings settings) {
        Set<String> roles = roles(settings);
        return builder()
                .bootstrapServers(settings.string("KAFKA_BOOTSTRAP_SERVERS", "localhost:9092"))
                .redis(RedisEndpoint.from(settings))
                .redisPrefix(settings.string("READMARK_REDIS_PREFIX", UnreadKeys.DEFAULT_PREFIX))
                .topics(Topics.from(settings::find))
                .applicationId(settings.string("PROCESSOR_APPLICATION_ID", "readmark-processor"))
                .streamThreads(settings.positiveInteger("PROCESSOR_STREAM_THREADS", 2))
                .authorPartitions(settings.positiveInteger("PROCESSOR_AUTHOR_PARTITIONS", DEFAULT_AUTHOR_PARTITIONS))
                .commitInterval(settings.duration("PROCESSOR_COMMIT_INTERVAL", Duration.ofSeconds(1)))
                .stateDir(Path.of(settings.string("PROCESSOR_STATE_DIR", System.getProperty("java.io.tmpdir") + "/readmark-streams")))
                .limits(new UnreadLimits(
                        settings.positiveInteger("READMARK_MAX_UNREAD_PER_AUTHOR", UnreadLimits.DEFAULTS.maxUnreadPerAuthor()),
                        settings.positiveInteger("READMARK_MAX_UNREAD_PER_USER", UnreadLimits.DEFAULTS.maxUnreadPerUser()),
                        settings.positiveInteger("READMARK_MAX_READ_MARKS_PER_USER", UnreadLimits.DEFAULTS.maxMarksPerUser()),
                        NoticeLimits.of(
                                settings.positiveInteger("READMARK_MAX_NOTICES_PER_AUDIENCE", NoticeLimits.DEFAULTS.maxNoticesPerAudience()),
                                settings.positiveInteger("READMARK_MAX_TARGETED_NOTICES", NoticeLimits.DEFAULTS.maxTargetedNotices()))))
                .maxPendingWrites(settings.positiveInteger("PROCESSOR_MAX_PENDING_WRITES", 10_000))
                .waitReplicas(settings.integer(WAIT_REPLICAS, 0))
                .layoutUpgrade(settings.bool(LAYOUT_UPGRADE, false))
                .redisTimeout(settings.duration("REDIS_TIMEOUT", Duration.ofSeconds(5)))
                .fanout(new FanoutSettings(bigVPolicy(settings),
                        settings.positiveInteger("PROCESSOR_FANOUT_CHUNK_SIZE", 2_000),
                        settings.positiveInteger("PROCESSOR_FANOUT_CHUNKS_PER_TICK", 4),
                        settings.duration("PROCESSOR_FANOUT_TICK", Duration.ofMillis(50)),
                        settings.duration("PROCESSOR_DELETED_BLOG_RETENTION", Duration.ofDays(7)),
                        settings.duration("PROCESSOR_RECENT_POST_RETENTION", Duration.ofDays(1)),
                        settings.positiveInteger("READMARK_NOTICE_INLINE_RECIPIENTS", FanoutSettings.DEFAULT_NOTICE_INLINE_RECIPIENTS)))
                .roles(roles.contains("main"), roles.contains("fanout"))
                .fanoutWorkerThreads(settings.positiveInteger("PROCESSOR_FANOUT_THREADS", 1))
                .fanoutDeliveriesPerSecond(settings.positiveInteger("PROCESSOR_FANOUT_DELIVERIES_PER_SECOND",
                        DEFAULT_FANOUT_DELIVERIES_PER_SECOND))
                .fanoutBurst(settings.positiveInteger("PROCESSOR_FANOUT_BURST", DEFAULT_FANOUT_BURST))
                .http(settings.string("PROCESSOR_HTTP_HOST", "127.0.0.1"), settings.integer("PROCESSOR_HTTP_PORT", 8082))
                .sessionTimeout(settings.duration("PROCESSOR_SESSION_TIMEOUT", DEFAULT_SESSION_TIMEOUT))
                .eventTimes(new EventTimeLimit(settings.duration(EventTimeLimit.SETTING, EventTimeLimit.DEFAULT_MAX_SKEW)))
                .kafkaClient(KafkaClientSettings.from(settings))
                .build();
    }

    /** A config built by the names of its components; {@link #from} is the one with the documented defaults. */
    public static Builder builder() {
        return new Builder();
    }

    private static BigVPolicy bigVPolicy(Settings settings) {
        int threshold = settings.positiveInteger("PROCESSOR_BIGV_THRESHOLD", 10_000);
        BigVPolicy defaults = BigVPolicy.withThreshold(threshold);
        return new BigVPolicy(threshold, settings.longValue("PROCESSOR_BIGV_RELEASE_BELOW", defaults.releaseBelow()));
    }

    private static Set<String> roles(Settings settings) {
        String value = settings.string("PROCESSOR_ROLES", "main,fanout");
        Set<String> roles = Arrays.stream(value.split(",")).map(String::trim).filter(r -> !r.isEmpty()).collect(Collectors.toSet());
        if (roles.isEmpty() || !Set.of("main", "fanout").containsAll(roles)) {
            throw new IllegalArgumentException("PROCESSOR_ROLES must list main and/or fanout, was '" + value + "'");
        }
        return roles;
    }

    Properties streamsProperties() {
        return streamsProperties(applicationId, streamThreads);
    }

    /** The worker is its own application: own consumer group, own threads, own scaling. */
    Properties fanoutWorkerProperties() {
        return streamsProperties(applicationId + "-fanout", fanoutWorkerThreads);
    }

    public Properties streamsProperties(String applicationId, int threads) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        // Redis is not transactional; idempotent scripts make at-least-once delivery exact.
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commitInterval.toMillis());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterSendFailures.class);
        props.put(DeadLetterSendFailures.DEAD_LETTER_TOPIC_CONFIG, topics.deadLetters().name());
        // The broker accepts group.min.session.timeout.ms (6 s) and more; three heartbeats fit in one session.
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), (int) sessionTimeout.toMillis());
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), (int) (sessionTimeout.toMillis() / 3));
        props.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), PRODUCER_LINGER_MS);
        return kafkaClient.under(props);
    }

    /** What an admin client of the processor or its tools needs: the broker and the pass-through client settings. */
    public Map<String, Object> adminProperties() {
        return kafkaClient.under(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }

    /** Names each component of a {@link ProcessorConfig}; {@link #build} refuses one left unset. */
    public static final class Builder {

        private String bootstrapServers;
        private RedisEndpoint redis;
        private String redisPrefix;
        private Topics topics;
        private String applicationId;
        private int streamThreads;
        private int authorPartitions;
        private Duration commitInterval;
        private Path stateDir;
        private UnreadLimits limits;
        private int maxPendingWrites;
        private int waitReplicas;
        private boolean layoutUpgrade;
        private Duration redisTimeout;
        private FanoutSettings fanout;
        private boolean runMain;
        private boolean runFanoutWorker;
        private int fanoutWorkerThreads;
        private int fanoutDeliveriesPerSecond;
        private int fanoutBurst = DEFAULT_FANOUT_BURST;
        private String httpHost;
        private int httpPort;
        private Duration sessionTimeout;
        private EventTimeLimit eventTimes = EventTimeLimit.DEFAULT;
        private KafkaClientSettings kafkaClient = KafkaClientSettings.none();

        private Builder() {
        }

        public Builder bootstrapServers(String bootstrapServers) {
            this.bootstrapServers = bootstrapServers;
            return this;
        }

        public Builder redis(RedisEndpoint redis) {
            this.redis = redis;
            return this;
        }

        public Builder redisPrefix(String redisPrefix) {
            this.redisPrefix = redisPrefix;
            return this;
        }

        public Builder topics(Topics topics) {
            this.topics = topics;
            return this;
        }

        public Builder applicationId(String applicationId) {
            this.applicationId = applicationId;
            return this;
        }

        public Builder streamThreads(int streamThreads) {
            this.streamThreads = streamThreads;
            return this;
        }

        public Builder authorPartitions(int authorPartitions) {
            this.authorPartitions = authorPartitions;
            return this;
        }

        public Builder commitInterval(Duration commitInterval) {
            this.commitInterval = commitInterval;
            return this;
        }

        public Builder stateDir(Path stateDir) {
            this.stateDir = stateDir;
            return this;
        }

        public Builder limits(UnreadLimits limits) {
            this.limits = limits;
            return this;
        }

        public Builder maxPendingWrites(int maxPendingWrites) {
            this.maxPendingWrites = maxPendingWrites;
            return this;
        }

        public Builder waitReplicas(int waitReplicas) {
            this.waitReplicas = waitReplicas;
            return this;
        }

        /** Whether writers convert a user of the previous layout before writing to them; off by default. */
        public Builder layoutUpgrade(boolean layoutUpgrade) {
            this.layoutUpgrade = layoutUpgrade;
            return this;
        }

        public Builder redisTimeout(Duration redisTimeout) {
            this.redisTimeout = redisTimeout;
            return this;
        }

        public Builder fanout(FanoutSettings fanout) {
            this.fanout = fanout;
            return this;
        }

        /** Whether this process runs the main topology, the big-V fan-out worker, or both. */
        public Builder roles(boolean runMain, boolean runFanoutWorker) {
            this.runMain = runMain;
            this.runFanoutWorker = runFanoutWorker;
            return this;
        }

        public Builder fanoutWorkerThreads(int fanoutWorkerThreads) {
            this.fanoutWorkerThreads = fanoutWorkerThreads;
            return this;
        }

        public Builder fanoutDeliveriesPerSecond(int fanoutDeliveriesPerSecond) {
            this.fanoutDeliveriesPerSecond = fanoutDeliveriesPerSecond;
            return this;
        }

        public Builder fanoutBurst(int fanoutBurst) {
            this.fanoutBurst = fanoutBurst;
            return this;
        }

        /** Where health and metrics are served; port 0: any free one. */
        public Builder http(String httpHost, int httpPort) {
            this.httpHost = httpHost;
            this.httpPort = httpPort;
            return this;
        }

        public Builder sessionTimeout(Duration sessionTimeout) {
            this.sessionTimeout = sessionTimeout;
            return this;
        }

        public Builder eventTimes(EventTimeLimit eventTimes) {
            this.eventTimes = eventTimes;
            return this;
        }

        /** Properties for every Kafka client; none by default (a plaintext, unauthenticated broker). */
        public Builder kafkaClient(KafkaClientSettings kafkaClient) {
            this.kafkaClient = kafkaClient;
            return this;
        }

        public ProcessorConfig build() {
            return new ProcessorConfig(set(bootstrapServers, "bootstrapServers"), set(redis, "redis"),
                    set(redisPrefix, "redisPrefix"), set(topics, "topics"), set(applicationId, "applicationId"), streamThreads,
                    authorPartitions, set(commitInterval, "commitInterval"), set(stateDir, "stateDir"), set(limits, "limits"),
                    maxPendingWrites, waitReplicas, layoutUpgrade, set(redisTimeout, "redisTimeout"), set(fanout, "fanout"), runMain, runFanoutWorker,
                    fanoutWorkerThreads, fanoutDeliveriesPerSecond, fanoutBurst, set(httpHost, "httpHost"), httpPort,
                    set(sessionTimeout, "sessionTimeout"), set(eventTimes, "eventTimes"),
                    set(kafkaClient, "kafkaClient"));
        }

        private static <T> T set(T value, String component) {
            return Objects.requireNonNull(value, () -> "ProcessorConfig." + component + " was not set");
        }
    }
}
