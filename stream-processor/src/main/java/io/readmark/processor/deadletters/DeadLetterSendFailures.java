package io.readmark.processor.deadletters;

import io.readmark.schemas.DeadLetterHeaders;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Keeps a stream thread alive when the dead-letter topic refuses a copy for good (a topic configured with a
 * {@code max.message.bytes} below the copy's size, say): failing would replace the thread, re-read the same record and
 * meet the same refusal forever. The lost copy is logged with its source coordinates, where the original still is.
 * Every other failed send fails the thread, as by default: fan-out chunks and changelogs must never be skipped.
 */
public final class DeadLetterSendFailures implements ProductionExceptionHandler {

    /** The Kafka Streams property that names the dead-letter topic to this handler. */
    public static final String DEAD_LETTER_TOPIC_CONFIG = "readmark.dead.letter.topic";

    private static final Logger log = LoggerFactory.getLogger(DeadLetterSendFailures.class);

    private String deadLetterTopic;

    @Override
    public void configure(Map<String, ?> configs) {
        deadLetterTopic = (String) configs.get(DEAD_LETTER_TOPIC_CONFIG);
    }

    @Override
    public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
        if (record.topic().equals(deadLetterTopic) && !(exception instanceof RetriableException)) {
            // The copy names its source; the context of an asynchronous send failure does not.
            log.atError().addKeyValue("topic", header(record, DeadLetterHeaders.SOURCE_TOPIC))
                    .addKeyValue("partition", header(record, DeadLetterHeaders.SOURCE_PARTITION))
                    .addKeyValue("offset", header(record, DeadLetterHeaders.SOURCE_OFFSET))
                    .addKeyValue("reason", header(record, DeadLetterHeaders.CATEGORY))
                    .log("the dead-letter topic {} refused the copy of a rejected record; the original stays at its source offset: {}",
                            deadLetterTopic, exception.toString());
            return Response.resume();
        }
        return Response.fail();
    }

    private static String header(ProducerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
