package io.readmark.schemas;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every topic of the pipeline and the serdes of their values. Names are configurable; keys are decimal id strings.
 */
public record Topics(Topic blogEvents, Topic followEvents, Topic readEvents, Topic deadLetters, Topic fanoutChunks,
                     Topic noticeEvents) {

    public static final String DEFAULT_BLOG_EVENTS = "blog-events";
    public static final String DEFAULT_FOLLOW_EVENTS = "follow-events";
    public static final String DEFAULT_READ_EVENTS = "read-events";
    public static final String DEFAULT_DEAD_LETTERS = "readmark-dlq";
    public static final String DEFAULT_FANOUT_CHUNKS = "readmark-fanout";
    public static final String DEFAULT_NOTICE_EVENTS = "notice-events";

    /**
     * The largest event record value the stream processor takes (64 KiB, the producer API's default body limit); larger
     * ones are dead-lettered as {@code oversize}. A valid event is well under 1 KiB, so unknown fields keep ample room.
     */
    public static final int MAX_EVENT_BYTES = 64 * 1024;

    /** The serde of every event topic's values. */
    public static final JsonSerde<Event> EVENT_SERDE = new JsonSerde<>(Event.class);
    /** The serde of the internal big-V fan-out topic. */
    public static final JsonSerde<FanoutChunk> CHUNK_SERDE = new JsonSerde<>(FanoutChunk.class);

    /**
     * Names from {@code READMARK_TOPIC_BLOG_EVENTS}, {@code _FOLLOW_EVENTS}, {@code _READ_EVENTS}, {@code _DLQ},
     * {@code _FANOUT}, {@code _NOTICE_EVENTS} as {@code setting} finds them, the default name for each it does not: the services pass their
     * settings lookup, a blog service for example {@code name -> Optional.ofNullable(System.getenv(name))}.
     */
    public static Topics from(Function<String, Optional<String>> setting) {
        return named(setting.apply("READMARK_TOPIC_BLOG_EVENTS").orElse(DEFAULT_BLOG_EVENTS),
                setting.apply("READMARK_TOPIC_FOLLOW_EVENTS").orElse(DEFAULT_FOLLOW_EVENTS),
                setting.apply("READMARK_TOPIC_READ_EVENTS").orElse(DEFAULT_READ_EVENTS),
                setting.apply("READMARK_TOPIC_DLQ").orElse(DEFAULT_DEAD_LETTERS),
                setting.apply("READMARK_TOPIC_FANOUT").orElse(DEFAULT_FANOUT_CHUNKS),
                setting.apply("READMARK_TOPIC_NOTICE_EVENTS").orElse(DEFAULT_NOTICE_EVENTS));
    }

    public static Topics defaults() {
        return named(DEFAULT_BLOG_EVENTS, DEFAULT_FOLLOW_EVENTS, DEFAULT_READ_EVENTS, DEFAULT_DEAD_LETTERS, DEFAULT_FANOUT_CHUNKS,
                DEFAULT_NOTICE_EVENTS);
    }

    /** Event topics with the given names and the default fan-out and notice topics (for clients that only publish). */
    public static Topics named(String blogEvents, String followEvents, String readEvents, String deadLetters) {
        return named(blogEvents, followEvents, readEvents, deadLetters, DEFAULT_FANOUT_CHUNKS);
    }

    /** The given names and the default notice topic. */
    public static Topics named(String blogEvents, String followEvents, String readEvents, String deadLetters,
                               String fanoutChunks) {
        return named(blogEvents, followEvents, readEvents, deadLetters, fanoutChunks, DEFAULT_NOTICE_EVENTS);
    }

    public static Topics named(String blogEvents, String followEvents, String readEvents, String deadLetters,
                               String fanoutChunks, String noticeEvents) {
        return new Topics(new Topic(blogEvents), new Topic(followEvents), new Topic(readEvents), new Topic(deadLetters),
                new Topic(fanoutChunks), new Topic(noticeEvents));
    }

    /** The topic an event belongs on. */
    public Topic topicFor(Event event) {
        return switch (event) {
            case BlogEvent ignored -> blogEvents;
            case FollowEvent ignored -> followEvents;
            case ReadEvent ignored -> readEvents;
            case NoticeEvent ignored -> noticeEvents;
        };
    }

    /** The record key of an event: its key id as a decimal string, or the audience of a broadcast notice event. */
    public static String keyOf(Event event) {
        return event.recordKey();
    }

    public List<String> allNames() {
        return List.of(blogEvents.name(), followEvents.name(), readEvents.name(), deadLetters.name(), fanoutChunks.name(),
                noticeEvents.name());
    }
}
