package io.readmark.bench.layouts;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Layout B's inline value as its reads decode it (b_lib.lua writes it): records of 20 bytes in no order, seconds since
 * 2020 (4), blogId (8), authorId (8), authorId 0 marking a read tombstone. At most a few records, so decoding and
 * sorting here costs less than a script would cost Redis.
 */
final class Inline {

    private static final int RECORD = 20;

    private Inline() {
    }

    /** The counts of an inline user; none for a user with no field. */
    static Layout.Counts counts(byte[] value) {
        Map<Long, Long> byAuthor = new LinkedHashMap<>();
        long total = 0;
        if (value != null) {
            ByteBuffer buffer = ByteBuffer.wrap(value);
            for (int at = 0; at + RECORD <= value.length; at += RECORD) {
                long author = buffer.getLong(at + 12);
                if (author == 0) continue; // a tombstone
                byAuthor.merge(author, 1L, Long::sum);
                total++;
            }
        }
        return new Layout.Counts(total, byAuthor);
    }

    /** The author's entries as layout A's blob (12-byte records, newest first), or null when there are none. */
    static byte[] blob(byte[] value, long authorId) {
        if (value == null) return null;
        ByteBuffer buffer = ByteBuffer.wrap(value);
        List<byte[]> records = new ArrayList<>();
        for (int at = 0; at + RECORD <= value.length; at += RECORD) {
            if (buffer.getLong(at + 12) == authorId) records.add(Arrays.copyOfRange(value, at, at + Entries.RECORD));
        }
        if (records.isEmpty()) return null;
        records.sort((a, b) -> Arrays.compareUnsigned(b, a)); // newest first: descending bytes
        ByteBuffer blob = ByteBuffer.allocate(records.size() * Entries.RECORD);
        records.forEach(blob::put);
        return blob.array();
    }
}
