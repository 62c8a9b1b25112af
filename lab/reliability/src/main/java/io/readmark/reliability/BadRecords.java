package io.readmark.reliability;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.readmark.schemas.BlogsRead;
import io.readmark.schemas.Json;
import io.readmark.schemas.Topics;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A seeded catalogue of records that break the wire contract, for each topic the stream processor reads: the three
 * event topics and the fan-out chunk topic. Every record carries the category the processor must dead-letter it
 * with. The same seed gives the same records.
 *
 * <p>Bad records use ids of their own (authors from 9,000,001, users from 8,000,001, blogs from 7,000,001), so one
 * that was wrongly accepted does not touch the state of the valid traffic beside it; it shows up as missing from the
 * dead-letter topic instead.
 */
public final class BadRecords {

    /** The largest record Kafka takes by default: a producer's {@code max.request.size}, about a topic's limit. */
    public static final int KAFKA_RECORD_LIMIT = 1_048_576;
    /** Room for the record batch's and the record's own framing, so a record of this much less still fits. */
    private static final int RECORD_FRAMING_BYTES = 128;
    /** Within the largest depth a JSON parser takes (1,000) or beyond it. */
    private static final int NESTING_BEYOND_LIMIT = 1_001;

    private static final long BAD_AUTHORS = 9_000_000;
    private static final long BAD_USERS = 8_000_000;
    private static final long BAD_BLOGS = 7_000_000;

    /** A topic the processor reads. */
    public enum Target {
        BLOG_EVENTS, FOLLOW_EVENTS, READ_EVENTS, FANOUT_CHUNKS;

        public String topic(Topics topics) {
            return switch (this) {
                case BLOG_EVENTS -> topics.blogEvents().name();
                case FOLLOW_EVENTS -> topics.followEvents().name();
                case READ_EVENTS -> topics.readEvents().name();
                case FANOUT_CHUNKS -> topics.fanoutChunks().name();
            };
        }
    }

    /** Why the processor must reject a record: the {@code reason} label of {@code readmark_dlq_records_total}. */
    public enum Category {
        MALFORMED, OVERSIZE, TYPE, KEY, FIELD;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How a record is bad. */
    public enum Kind {
        NOT_JSON, BINARY, EMPTY, TOMBSTONE, NOT_AN_OBJECT, CUT_OFF, TOO_DEEPLY_NESTED,
        UNKNOWN_TYPE, MISSING_TYPE, FOREIGN_TYPE, HUGE_TYPE,
        MISSING_FIELD, NULL_FIELD, STRING_FOR_ID, FLOAT_ID, BOOLEAN_ID, NEGATIVE_ID, ZERO_ID, ID_OUT_OF_RANGE,
        NON_CANONICAL_ID, INVALID_INSTANT, INSTANT_OUT_OF_RANGE, FAR_FUTURE_INSTANT, LONG_EVENT_ID, EVENT_ID_NOT_A_STRING,
        NULL_KEY, WRONG_KEY, HUGE_KEY,
        OVERSIZE, NEAR_RECORD_LIMIT,
        BAD_FOLLOWER, NO_FOLLOWERS, UNKNOWN_CHUNK_KIND, EVENT_AS_CHUNK,
        BAD_BLOG_LIST;

        /** Kinds that make records of about 1 MB, kept out of the random mix. */
        boolean large() {
            return this == NEAR_RECORD_LIMIT;
        }
    }

    private static final Set<Kind> CHUNK_ONLY = EnumSet.of(Kind.BAD_FOLLOWER, Kind.NO_FOLLOWERS, Kind.UNKNOWN_CHUNK_KIND,
            Kind.EVENT_AS_CHUNK);
    /** A chunk has no type, its key is free and the worker takes any chunk Kafka takes. */
    private static final Set<Kind> EVENT_ONLY = EnumSet.of(Kind.UNKNOWN_TYPE, Kind.MISSING_TYPE, Kind.FOREIGN_TYPE,
            Kind.HUGE_TYPE, Kind.INVALID_INSTANT, Kind.INSTANT_OUT_OF_RANGE, Kind.FAR_FUTURE_INSTANT, Kind.LONG_EVENT_ID, Kind.EVENT_ID_NOT_A_STRING,
            Kind.NULL_KEY, Kind.WRONG_KEY, Kind.HUGE_KEY, Kind.OVERSIZE);
    /** A {@code BlogsRead}'s list of blogs: empty, too long, or with a bad item. */
    private static final Set<Kind> READ_ONLY = EnumSet.of(Kind.BAD_BLOG_LIST);

    /** One bad record: where it goes, how it is bad, its key and value as sent, and why it must be rejected. */
    public record BadRecord(Target target, Kind kind, byte[] key, byte[] value, Category category) {

        public int size() {
            return (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        }

        @Override
        public String toString() {
            String shown = value == null ? "null" : new String(value, 0, Math.min(value.length, 80), StandardCharsets.UTF_8);
            return target + " " + kind + " -> " + category.label() + " (" + size() + " bytes: " + shown + ")";
        }
    }

    private final Random random;
    private long sequence;

    public BadRecords(long seed) {
        this.random = new Random(seed);
    }

    /** The kinds that apply to a topic. */
    public static Set<Kind> kinds(Target target) {
        Set<Kind> kinds = EnumSet.allOf(Kind.class);
        kinds.removeAll(target == Target.FANOUT_CHUNKS ? EVENT_ONLY : CHUNK_ONLY);
        if (target != Target.READ_EVENTS) kinds.removeAll(READ_ONLY);
        return kinds;
    }

    /** One record of every kind that applies to the topic, the large ones included. */
    public List<BadRecord> everyKind(Target target) {
        return kinds(target).stream().map(kind -> next(target, kind)).toList();
    }

    /** A record of a random kind that applies to the topic, none of them larger than about 100 KB. */
    public BadRecord next(Target target) {
        List<Kind> small = kinds(target).stream().filter(kind -> !kind.large()).toList();
        return next(target, small.get(random.nextInt(small.size())));
    }

    /** A record of the given kind for the topic. */
    public BadRecord next(Target target, Kind kind) {
        if (!kinds(target).contains(kind)) throw new IllegalArgumentException(kind + " does not apply to " + target);
        return target == Target.FANOUT_CHUNKS ? chunk(kind) : event(target, kind);
    }

    private BadRecord event(Target target, Kind kind) {
        Map<String, Object> event = validEvent(target);
        String key = keyOf(event);
        return switch (kind) {
            case NOT_JSON -> bad(target, kind, key, text("not json: " + words()), Category.MALFORMED);
            case BINARY -> bad(target, kind, key, binary(), Category.MALFORMED);
            case EMPTY -> bad(target, kind, key, new byte[0], Category.MALFORMED);
            case TOMBSTONE -> bad(target, kind, key, null, Category.MALFORMED);
            case NOT_AN_OBJECT -> bad(target, kind, key, notAnObject(event), Category.MALFORMED);
            case CUT_OFF -> bad(target, kind, key, cutOff(json(event)), Category.MALFORMED);
            case TOO_DEEPLY_NESTED -> bad(target, kind, key, nested(event), Category.MALFORMED);
            case UNKNOWN_TYPE -> {
                event.put("type", pick("BlogExploded", "blogpublished", "Followed ", 5, ""));
                yield bad(target, kind, key, json(event), Category.TYPE);
            }
            case MISSING_TYPE -> {
                event.put("type", null);
                if (random.nextBoolean()) event.remove("type");
                yield bad(target, kind, key, json(event), Category.TYPE);
            }
            case FOREIGN_TYPE -> {
                Target other = Target.values()[(target.ordinal() + 1 + random.nextInt(2)) % 3];
                Map<String, Object> foreign = validEvent(other);
                yield bad(target, kind, keyOf(foreign), json(foreign), Category.TYPE);
            }
            case HUGE_TYPE -> {
                event.put("type", "T".repeat(20_000 + random.nextInt(30_000)));
                yield bad(target, kind, key, json(event), Category.TYPE);
            }
            case MISSING_FIELD -> {
                event.remove(pick(requiredFields(event)));
                yield bad(target, kind, key, json(event), Category.FIELD);
            }
            case NULL_FIELD -> {
                event.put(pick(requiredFields(event)), null);
                yield bad(target, kind, key, json(event), Category.FIELD);
            }
            case STRING_FOR_ID -> withId(target, kind, event, key, pick("abc", "", "12abc", "1 2", "NaN"));
            case FLOAT_ID -> withId(target, kind, event, key, pick(5.0, 5.5, 1e3, -0.0));
            case BOOLEAN_ID -> withId(target, kind, event, key, random.nextBoolean());
            case NEGATIVE_ID -> withId(target, kind, event, key, pick(-1L, Long.MIN_VALUE, "-7"));
            case ZERO_ID -> withId(target, kind, event, key, pick(0L, "0"));
            case ID_OUT_OF_RANGE -> withId(target, kind, event, key,
                    pick(new BigInteger("9223372036854775808"), "9223372036854775808", new BigInteger("1" + "0".repeat(30))));
            case NON_CANONICAL_ID -> withId(target, kind, event, key, pick("+5", " 5", "5 ", "05", "\t5", "0x5", "5e0"));
            case INVALID_INSTANT -> {
                event.put(instantField(event), pick("yesterday", "2026-13-01T00:00:00Z", "2026-01-01T12:00:00",
                        "2026-02-30T00:00:00Z", 1_767_225_600_000L, "", true));
                yield bad(target, kind, key, json(event), Category.FIELD);
            }
            case INSTANT_OUT_OF_RANGE -> {
                event.put(instantField(event), pick("+999999999-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z",
                        "+10000-01-01T00:00:00Z", "-0001-12-31T23:59:59Z"));
                yield bad(target, kind, key, json(event), Category.FIELD);
            }
            // Valid instants, but far past any record timestamp the harness sends (the producer's clock, now).
            case FAR_FUTURE_INSTANT -> {
                event.put(instantField(event), pick("9999-12-31T23:59:59Z", "2999-01-01T00:00:00Z", "2100-06-30T12:00:00Z"));
                yield bad(target, kind, key, json(event), Category.FIELD);
            }
            case LONG_EVENT_ID -> {
                event.put("eventId", "e".repeat(201 + random.nextInt(5_000)));
                yield bad(target, kind, key, json(event), Category.FIELD);
            }
            case EVENT_ID_NOT_A_STRING -> {
                event.put("eventId", pick(5, true, List.of("e"), Map.of("id", "e"), "   "));
                yield bad(target, kind, key, json(event), Category.FIELD);
            }
            case NULL_KEY -> bad(target, kind, null, json(event), Category.KEY);
            case WRONG_KEY -> bad(target, kind, pick(Long.toString(Long.parseLong(key) + 1), "+" + key, " " + key, "0" + key, "",
                    "author-" + key), json(event), Category.KEY);
            case HUGE_KEY -> bad(target, kind, key.repeat(4_000), json(event), Category.KEY);
            case OVERSIZE -> bad(target, kind, key, padded(event, Topics.MAX_EVENT_BYTES + 1 + random.nextInt(40_000)),
                    Category.OVERSIZE);
            case NEAR_RECORD_LIMIT -> bad(target, kind, key, padded(event, nearRecordLimit(key)), Category.OVERSIZE);
            case BAD_BLOG_LIST -> bad(target, kind, key, json(badBlogList(event)), Category.FIELD);
            case BAD_FOLLOWER, NO_FOLLOWERS, UNKNOWN_CHUNK_KIND, EVENT_AS_CHUNK ->
                    throw new IllegalArgumentException(kind + " applies to fan-out chunks only");
        };
    }

    private BadRecord chunk(Kind kind) {
        Target target = Target.FANOUT_CHUNKS;
        Map<String, Object> chunk = validChunk();
        String key = chunk.get("jobId") + "-" + random.nextInt(1_000);
        return switch (kind) {
            case NOT_JSON -> bad(target, kind, key, text("not a chunk: " + words()), Category.MALFORMED);
            case BINARY -> bad(target, kind, key, binary(), Category.MALFORMED);
            case EMPTY -> bad(target, kind, key, new byte[0], Category.MALFORMED);
            case TOMBSTONE -> bad(target, kind, key, null, Category.MALFORMED);
            case NOT_AN_OBJECT -> bad(target, kind, key, notAnObject(chunk), Category.MALFORMED);
            case CUT_OFF -> bad(target, kind, key, cutOff(json(chunk)), Category.MALFORMED);
            case TOO_DEEPLY_NESTED -> bad(target, kind, key, nested(chunk), Category.MALFORMED);
            case MISSING_FIELD -> {
                chunk.remove(pick("jobId", "kind", "authorId", "blogId", "atMillis", "jobFollowers", "jobStartedAtMillis",
                        "followerIds"));
                yield bad(target, kind, key, json(chunk), Category.FIELD);
            }
            case NULL_FIELD -> {
                chunk.put(pick("jobId", "kind", "authorId", "blogId", "atMillis", "followerIds"), null);
                yield bad(target, kind, key, json(chunk), Category.FIELD);
            }
            case STRING_FOR_ID -> withChunkNumber(kind, chunk, key, pick("abc", "", "12abc"), anyNumberField());
            case FLOAT_ID -> withChunkNumber(kind, chunk, key, pick(5.0, 5.5, 1e3), anyNumberField());
            case BOOLEAN_ID -> withChunkNumber(kind, chunk, key, random.nextBoolean(), anyNumberField());
            case NEGATIVE_ID -> withChunkNumber(kind, chunk, key, pick(-1L, Long.MIN_VALUE, "-7"), pick("authorId", "blogId"));
            case ZERO_ID -> withChunkNumber(kind, chunk, key, pick(0L, "0"), pick("authorId", "blogId"));
            case ID_OUT_OF_RANGE -> withChunkNumber(kind, chunk, key,
                    pick(new BigInteger("9223372036854775808"), "9223372036854775808"), anyNumberField());
            case NON_CANONICAL_ID -> withChunkNumber(kind, chunk, key, pick("+5", " 5", "05"), anyNumberField());
            case BAD_FOLLOWER -> {
                List<Object> followers = new ArrayList<>(List.of(BAD_USERS + 1, BAD_USERS + 2));
                followers.add(random.nextInt(followers.size() + 1), pick(0L, -1L, null, "+3", 1.5, "x", List.of(1)));
                chunk.put("followerIds", followers);
                yield bad(target, kind, key, json(chunk), Category.FIELD);
            }
            case NO_FOLLOWERS -> {
                chunk.put("followerIds", List.of());
                yield bad(target, kind, key, json(chunk), Category.FIELD);
            }
            case UNKNOWN_CHUNK_KIND -> {
                chunk.put("kind", pick("EXPLODE", "deliver", "", 0, 1));
                yield bad(target, kind, key, json(chunk), Category.FIELD);
            }
            case EVENT_AS_CHUNK -> bad(target, kind, key, json(validEvent(Target.values()[random.nextInt(3)])), Category.FIELD);
            // Nothing limits a chunk's size but Kafka; one this large that is not JSON is malformed.
            case NEAR_RECORD_LIMIT -> {
                byte[] value = new byte[nearRecordLimit(key)];
                Arrays.fill(value, (byte) '~');
                yield bad(target, kind, key, value, Category.MALFORMED);
            }
            case BAD_BLOG_LIST -> throw new IllegalArgumentException(kind + " applies to read events only");
            default -> throw new IllegalArgumentException(kind + " does not apply to fan-out chunks");
        };
    }

    private Map<String, Object> validEvent(Target target) {
        long n = ++sequence;
        Map<String, Object> event = new LinkedHashMap<>();
        String at = "2026-0" + (1 + random.nextInt(9)) + "-1" + random.nextInt(10) + "T12:00:00Z";
        switch (target) {
            case BLOG_EVENTS -> {
                boolean publish = random.nextBoolean();
                event.put("type", publish ? "BlogPublished" : "BlogDeleted");
                event.put("eventId", "bad-" + n);
                event.put("blogId", BAD_BLOGS + n);
                event.put("authorId", BAD_AUTHORS + 1 + random.nextInt(50));
                event.put(publish ? "publishedAt" : "deletedAt", at);
            }
            case FOLLOW_EVENTS -> {
                event.put("type", random.nextBoolean() ? "Followed" : "Unfollowed");
                event.put("eventId", "bad-" + n);
                event.put("followerId", BAD_USERS + 1 + random.nextInt(500));
                event.put("authorId", BAD_AUTHORS + 1 + random.nextInt(50));
                event.put("at", at);
            }
            case READ_EVENTS -> {
                String type = pick("BlogRead", "BlogsRead", "AuthorReadAll", "AllRead", "InboxSeen");
                event.put("type", type);
                event.put("eventId", "bad-" + n);
                event.put("userId", BAD_USERS + 1 + random.nextInt(500));
                if (type.equals("BlogRead")) event.put("blogId", BAD_BLOGS + random.nextInt(10_000));
                if (type.equals("BlogRead") || type.equals("AuthorReadAll")) event.put("authorId", BAD_AUTHORS + 1 + random.nextInt(50));
                if (type.equals("BlogsRead")) event.put("blogs", blogList(1 + random.nextInt(3)));
                event.put(type.equals("InboxSeen") ? "seenAt" : "readAt", at);
            }
            case FANOUT_CHUNKS -> throw new IllegalArgumentException("a chunk is not an event");
        }
        return event;
    }

    private Map<String, Object> validChunk() {
        long n = ++sequence;
        Map<String, Object> chunk = new LinkedHashMap<>();
        boolean deliver = random.nextBoolean();
        chunk.put("jobId", (deliver ? "deliver-" : "remove-") + (BAD_BLOGS + n));
        chunk.put("kind", deliver ? "DELIVER" : "REMOVE");
        chunk.put("authorId", BAD_AUTHORS + 1 + random.nextInt(50));
        chunk.put("blogId", BAD_BLOGS + n);
        chunk.put("atMillis", 1_767_225_600_000L);
        chunk.put("jobFollowers", 3L);
        chunk.put("jobStartedAtMillis", 1_767_225_600_000L);
        chunk.put("followerIds", List.of(BAD_USERS + 1, BAD_USERS + 2, BAD_USERS + 3));
        return chunk;
    }

    /** Blogs of a valid {@code BlogsRead}, ids of the bad records' own. */
    private List<Map<String, Object>> blogList(int size) {
        List<Map<String, Object>> blogs = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            Map<String, Object> blog = new LinkedHashMap<>();
            blog.put("blogId", BAD_BLOGS + random.nextInt(10_000));
            blog.put("authorId", BAD_AUTHORS + 1 + random.nextInt(50));
            blogs.add(blog);
        }
        return blogs;
    }

    /** A {@code BlogsRead} of the event's user whose list is empty, over 100 blogs, or holds one bad item. */
    private Map<String, Object> badBlogList(Map<String, Object> valid) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("type", "BlogsRead");
        event.put("eventId", valid.get("eventId"));
        event.put("userId", valid.get("userId"));
        List<Object> blogs = new ArrayList<>(blogList(1 + random.nextInt(3)));
        switch (random.nextInt(3)) {
            case 0 -> blogs.clear();
            case 1 -> blogs.addAll(blogList(BlogsRead.MAX_BLOGS + 1 - blogs.size() + random.nextInt(10)));
            default -> {
                Map<String, Object> bad = blogList(1).getFirst();
                String field = pick("blogId", "authorId");
                if (random.nextBoolean()) bad.remove(field);
                else bad.put(field, pick(0L, -1L, null, "+3", 1.5, "x", true, List.of(1)));
                blogs.add(random.nextInt(blogs.size() + 1), pick(bad, null, 5L, "blog"));
            }
        }
        event.put("blogs", blogs);
        event.put("readAt", "2026-01-01T12:00:00Z");
        return event;
    }

    /** The record key of a valid event: the id its topic is keyed by. */
    private static String keyOf(Map<String, Object> event) {
        Object id = event.containsKey("userId") ? event.get("userId") : event.get("authorId");
        return id.toString();
    }

    private static List<String> requiredFields(Map<String, Object> event) {
        return event.keySet().stream().filter(field -> !field.equals("type")).toList();
    }

    private static String instantField(Map<String, Object> event) {
        return event.keySet().stream().filter(field -> field.endsWith("At") || field.equals("at")).findFirst().orElseThrow();
    }

    private BadRecord withId(Target target, Kind kind, Map<String, Object> event, String key, Object id) {
        List<String> ids = event.keySet().stream().filter(field -> field.endsWith("Id") && !field.equals("eventId")).toList();
        event.put(pick(ids), id);
        return bad(target, kind, key, json(event), Category.FIELD);
    }

    private BadRecord withChunkNumber(Kind kind, Map<String, Object> chunk, String key, Object value, String field) {
        chunk.put(field, value);
        return bad(Target.FANOUT_CHUNKS, kind, key, json(chunk), Category.FIELD);
    }

    private String anyNumberField() {
        return pick("authorId", "blogId", "atMillis", "jobFollowers", "jobStartedAtMillis");
    }

    private byte[] notAnObject(Map<String, Object> valid) {
        return text(pick("[" + new String(json(valid), StandardCharsets.UTF_8) + "]", "\"" + words() + "\"", "42", "-1.5",
                "true", "null", "[]"));
    }

    private byte[] cutOff(byte[] json) {
        return Arrays.copyOf(json, 1 + random.nextInt(json.length - 1));
    }

    /** A valid object whose unknown field nests arrays deeper than a JSON parser takes. */
    private byte[] nested(Map<String, Object> valid) {
        int depth = NESTING_BEYOND_LIMIT + random.nextInt(5_000);
        String object = new String(json(valid), StandardCharsets.UTF_8);
        String deep = "[".repeat(depth) + "]".repeat(depth);
        return text(object.substring(0, object.length() - 1) + ",\"deep\":" + deep + "}");
    }

    /** A valid object made exactly {@code size} bytes long by an unknown field. */
    private static byte[] padded(Map<String, Object> valid, int size) {
        String object = new String(json(valid), StandardCharsets.UTF_8);
        String opening = object.substring(0, object.length() - 1) + ",\"pad\":\"";
        String closing = "\"}";
        return text(opening + "p".repeat(size - opening.length() - closing.length()) + closing);
    }

    /** A value that, with this key, just fits one Kafka record: its dead-letter copy, with headers added, would not. */
    private static int nearRecordLimit(String key) {
        return KAFKA_RECORD_LIMIT - RECORD_FRAMING_BYTES - key.getBytes(StandardCharsets.UTF_8).length;
    }

    private byte[] binary() {
        byte[] bytes = new byte[1 + random.nextInt(512)];
        random.nextBytes(bytes);
        // Never a '{', '[', '"' or digit at the start, so it cannot be JSON by chance.
        bytes[0] = (byte) (0x80 | random.nextInt(0x80));
        return bytes;
    }

    private String words() {
        return pick("hello", "{oops", "<xml/>", "type=BlogPublished", "SELECT 1", "\u0000\u0001") + " " + random.nextInt(1_000_000);
    }

    @SafeVarargs
    private <T> T pick(T... choices) {
        return choices[random.nextInt(choices.length)];
    }

    private <T> T pick(List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    private static BadRecord bad(Target target, Kind kind, String key, byte[] value, Category category) {
        return new BadRecord(target, kind, key == null ? null : text(key), value, category);
    }

    private static byte[] json(Object value) {
        try {
            return Json.MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value, e);
        }
    }

    private static byte[] text(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
