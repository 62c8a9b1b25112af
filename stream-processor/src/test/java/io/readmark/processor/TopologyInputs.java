package io.readmark.processor;

import io.readmark.schemas.Topics;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

import java.nio.charset.StandardCharsets;

/** The main topology's topics in a TopologyTestDriver, and the author events the tests pipe in, by name. */
final class TopologyInputs {

    final TestInputTopic<String, String> follows;
    final TestInputTopic<String, String> blogs;
    final TestInputTopic<String, String> reads;
    final TestInputTopic<String, String> notices;
    final TestOutputTopic<byte[], byte[]> deadLetters;

    TopologyInputs(TopologyTestDriver driver, Topics topics) {
        StringSerializer strings = new StringSerializer();
        follows = driver.createInputTopic(topics.followEvents().name(), strings, strings);
        blogs = driver.createInputTopic(topics.blogEvents().name(), strings, strings);
        reads = driver.createInputTopic(topics.readEvents().name(), strings, strings);
        notices = driver.createInputTopic(topics.noticeEvents().name(), strings, strings);
        deadLetters = driver.createOutputTopic(topics.deadLetters().name(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    void followed(long follower, long author, String at) {
        follows.pipeInput(Long.toString(author), """
                {"type":"Followed","eventId":"f-%d-%d","followerId":%d,"authorId":%d,"at":"%s"}"""
                .formatted(follower, author, follower, author, at));
    }

    void unfollowed(long follower, long author, String at) {
        follows.pipeInput(Long.toString(author), """
                {"type":"Unfollowed","eventId":"u-%d-%d","followerId":%d,"authorId":%d,"at":"%s"}"""
                .formatted(follower, author, follower, author, at));
    }

    void published(long blogId, long author, String at) {
        blogs.pipeInput(Long.toString(author), """
                {"type":"BlogPublished","eventId":"p-%d","blogId":%d,"authorId":%d,"publishedAt":"%s"}"""
                .formatted(blogId, blogId, author, at));
    }

    void deleted(long blogId, long author, String at) {
        blogs.pipeInput(Long.toString(author), """
                {"type":"BlogDeleted","eventId":"d-%d","blogId":%d,"authorId":%d,"deletedAt":"%s"}"""
                .formatted(blogId, blogId, author, at));
    }

    /** A header of a dead letter as text, null if it has none. */
    static String header(TestRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
