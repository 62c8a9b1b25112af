package io.readmark.processor;

import io.readmark.infra.KafkaTopics;

import java.io.IOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;

/**
 * The settings of a processor a test starts on the shared broker: topics, application id and Redis prefix of its own
 * (the topics created here), one stream thread, a fresh state directory, HTTP on a free port.
 */
final class OwnTopics {

    private OwnTopics() {
    }

    /** A mutable map, for the test to add its own settings to. */
    static Map<String, String> settings(String kafka, String run) throws IOException {
        Map<String, String> settings = new HashMap<>(Map.of("KAFKA_BOOTSTRAP_SERVERS", kafka, "PROCESSOR_APPLICATION_ID", run,
                "READMARK_REDIS_PREFIX", run, "READMARK_TOPIC_BLOG_EVENTS", "blog-" + run, "READMARK_TOPIC_FOLLOW_EVENTS", "follow-" + run,
                "READMARK_TOPIC_READ_EVENTS", "read-" + run, "READMARK_TOPIC_DLQ", "dlq-" + run, "READMARK_TOPIC_FANOUT", "fanout-" + run,
                "READMARK_TOPIC_NOTICE_EVENTS", "notice-" + run));
        settings.putAll(Map.of("PROCESSOR_STREAM_THREADS", "1", "PROCESSOR_HTTP_HOST", "127.0.0.1", "PROCESSOR_HTTP_PORT", "0",
                "PROCESSOR_STATE_DIR", Files.createTempDirectory(run).toString()));
        KafkaTopics.createTopics(kafka, Map.of("blog-" + run, 1, "follow-" + run, 1, "read-" + run, 1, "dlq-" + run, 1,
                "fanout-" + run, 1, "notice-" + run, 1));
        return settings;
    }
}
