package io.readmark.producer;

import io.readmark.schemas.Topics;
import io.readmark.testing.KafkaRecords;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.util.function.UnaryOperator;

/**
 * A running producer API on the shared broker, with topics only its test class writes to and an HTTP client to call
 * it the way any client would. One per test class, closed with it ({@code @AutoClose}).
 */
final class ProducerApiFixture implements AutoCloseable {

    final Topics topics;
    final HttpCalls http;
    private final ProducerApi api;

    private ProducerApiFixture(Topics topics, ProducerApi api) {
        this.topics = topics;
        this.api = api;
        this.http = new HttpCalls(api.port());
    }

    /** On loopback, every setting at its default. */
    static ProducerApiFixture start(Class<?> testClass) {
        return start(testClass, UnaryOperator.identity());
    }

    /** On loopback, with {@code adjust} applied to the default settings. */
    static ProducerApiFixture start(Class<?> testClass, UnaryOperator<ProducerApiConfig> adjust) {
        Topics topics = Topics.from(KafkaRecords.createTopicsFor(testClass));
        try {
            return new ProducerApiFixture(topics, ProducerApi.start(adjust.apply(ProducerApiConfig.onLoopback(KafkaRecords.bootstrap(), topics))));
        } catch (IOException e) {
            throw new UncheckedIOException("the producer API for " + testClass.getSimpleName() + " did not start", e);
        }
    }

    /** A call to the management port (health, metrics). */
    HttpResponse<String> management(String path) {
        return HttpCalls.management(api, path);
    }

    @Override
    public void close() {
        http.close();
        api.close();
    }
}
