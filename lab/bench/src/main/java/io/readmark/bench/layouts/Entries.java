package io.readmark.bench.layouts;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bytes layouts A and B keep per entry, written and read here as their scripts do: time in whole seconds since
 * 2020 (4 bytes: good until 2156), ids as 8 big-endian bytes, and the 12-byte record seconds ‖ blogId whose byte order
 * is newest-first order. Ids never pass through a Lua number, which is exact only below 2^53.
 */
final class Entries {

    /** 2020-01-01T00:00:00Z in Unix seconds: the origin of the candidates' times. */
    static final long EPOCH_2020 = 1_577_836_800L;
    static final int RECORD = 12;

    private Entries() {
    }

    /** Whole seconds since 2020; a time is kept to the second. */
    static long seconds(long epochMillis) {
        long seconds = Math.floorDiv(epochMillis, 1000) - EPOCH_2020;
        if (seconds < 0 || seconds > 0xFFFF_FFFFL) throw new IllegalArgumentException("time out of range: " + epochMillis);
        return seconds;
    }

    static byte[] id(long id) {
        return ByteBuffer.allocate(8).putLong(id).array();
    }

    static byte[] record(long seconds, long blogId) {
        return ByteBuffer.allocate(RECORD).putInt((int) seconds).putLong(blogId).array();
    }

    /** The items of a page reply of concatenated records, all of one author. */
    static List<Layout.Item> items(byte[] records, long authorId) {
        ByteBuffer buffer = ByteBuffer.wrap(records);
        List<Layout.Item> items = new ArrayList<>(records.length / RECORD);
        while (buffer.remaining() >= RECORD) {
            long seconds = Integer.toUnsignedLong(buffer.getInt());
            items.add(new Layout.Item(buffer.getLong(), authorId, seconds + EPOCH_2020));
        }
        return items;
    }

    /**
     * Up to {@code count} items of an author's blob (records newest first) after the cursor's record, or from the
     * newest when there is none: a binary search, as the records are in descending byte order.
     */
    static List<Layout.Item> after(byte[] blob, byte[] cursor, int count, long authorId) {
        int records = blob.length / RECORD, low = 0, high = records;
        while (cursor.length == RECORD && low < high) { // the first record the cursor is newer than
            int middle = (low + high) >>> 1;
            if (Arrays.compareUnsigned(cursor, 0, RECORD, blob, middle * RECORD, (middle + 1) * RECORD) > 0) high = middle;
            else low = middle + 1;
        }
        int end = Math.min(records, low + count);
        return items(Arrays.copyOfRange(blob, low * RECORD, end * RECORD), authorId);
    }

    /** An author page's cursor: the last item's record, opaque to callers. */
    static String authorCursor(Layout.Item last) {
        return HexFormat.of().formatHex(record(last.publishedAtSeconds() - EPOCH_2020, last.blogId()));
    }

    static byte[] authorCursorRecord(String cursor) {
        return cursor == null ? new byte[0] : HexFormat.of().parseHex(cursor);
    }

    /** A merged page's cursor: the last item's score and member in z. */
    static String mergedCursor(Layout.Item last) {
        String plain = -(last.publishedAtSeconds() - EPOCH_2020) + ":" + last.blogId();
        return Base64.getUrlEncoder().encodeToString(plain.getBytes(StandardCharsets.US_ASCII));
    }

    /** {score, member} of a merged cursor, or none for the first page. */
    static byte[][] mergedCursorArgs(String cursor) {
        if (cursor == null) return new byte[0][];
        String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII).split(":");
        return new byte[][]{ascii(parts[0]), ascii(parts[1])};
    }

    /** The items of a merged page reply {blogId, score, authorId, ...}. */
    static List<Layout.Item> mergedItems(List<Object> rows) {
        List<Layout.Item> items = new ArrayList<>(rows.size() / 3);
        for (int i = 0; i + 2 < rows.size(); i += 3) {
            long score = Long.parseLong(text(rows.get(i + 1)));
            items.add(new Layout.Item(Long.parseLong(text(rows.get(i))), Long.parseLong(text(rows.get(i + 2))), -score + EPOCH_2020));
        }
        return items;
    }

    /** Counts from layout A's h: author fields hold 12 bytes per entry, t the total; floors are not counts. */
    static Layout.Counts counts(Map<byte[], byte[]> h) {
        long total = 0;
        Map<Long, Long> byAuthor = new LinkedHashMap<>();
        for (Map.Entry<byte[], byte[]> field : h.entrySet()) {
            String name = text(field.getKey());
            if (name.equals("t")) total = Long.parseLong(text(field.getValue()));
            else if (Character.isDigit(name.charAt(0))) byAuthor.put(Long.parseLong(name), (long) field.getValue().length / RECORD);
        }
        return new Layout.Counts(total, byAuthor);
    }

    static String text(Object value) {
        if (value instanceof byte[] bytes) return new String(bytes, StandardCharsets.US_ASCII);
        return String.valueOf(value);
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** A page of at most {@code limit} of the {@code fetched} items (one more was asked for, to know whether a page follows). */
    static Layout.Page page(List<Layout.Item> fetched, int limit, boolean merged) {
        if (fetched.size() <= limit) return new Layout.Page(fetched, null);
        List<Layout.Item> items = List.copyOf(fetched.subList(0, limit));
        return new Layout.Page(items, merged ? mergedCursor(items.getLast()) : authorCursor(items.getLast()));
    }
}
