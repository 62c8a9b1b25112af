package io.readmark.processor;

import io.readmark.common.config.Settings;
import io.readmark.schemas.Topics;
import io.readmark.store.UnreadKeys;
import io.readmark.store.UnreadLimits;
import org.apache.kafka.streams.StreamsConfig;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;

/** Everything the stream processor can be told, with defaults for a local run. */
public record ProcessorConfig(String bootstrapServers, String redisUrl, String redisPrefix, Topics topics,
                              String applicationId, int streamThreads, Duration commitInterval, Path stateDir,
                              UnreadLimits limits, int maxPendingWrites, Duration redisTimeout,
                              Duration tombstoneRetention) {

    public static ProcessorConfig from(Settings settings) {
        return new ProcessorConfig(
                settings.string("KAFKA_BOOTSTRAP_SERVERS", "localhost:9092"),
                settings.string("REDIS_URL", "redis://localhost:6379"),
                settings.string("READMARK_REDIS_PREFIX", UnreadKeys.DEFAULT_PREFIX),
                Topics.from(settings),
                settings.string("PROCESSOR_APPLICATION_ID", "readmark-processor"),
                settings.positiveInteger("PROCESSOR_STREAM_THREADS", 2),
                settings.duration("PROCESSOR_COMMIT_INTERVAL", Duration.ofSeconds(1)),
                Path.of(settings.string("PROCESSOR_STATE_DIR", System.getProperty("java.io.tmpdir") + "/readmark-streams")),
                new UnreadLimits(
                        settings.positiveInteger("READMARK_MAX_UNREAD_PER_AUTHOR", UnreadLimits.DEFAULTS.maxUnreadPerAuthor()),
                        settings.positiveInteger("READMARK_MAX_READ_MARKS_PER_USER", UnreadLimits.DEFAULTS.maxMarksPerUser())),
                settings.positiveInteger("PROCESSOR_MAX_PENDING_WRITES", 10_000),
                settings.duration("REDIS_TIMEOUT", Duration.ofSeconds(5)),
                settings.duration("PROCESSOR_DELETED_BLOG_RETENTION", Duration.ofDays(7)));
    }

    Properties streamsProperties() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        // Redis is not transactional; idempotent scripts make at-least-once delivery exact.
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, streamThreads);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commitInterval.toMillis());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        return props;
    }
}
