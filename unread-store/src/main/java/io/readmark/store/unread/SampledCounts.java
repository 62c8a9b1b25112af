package io.readmark.store.unread;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A user's counts from a sample of a counts hash too big to read whole ({@code hash_sample.lua}): the totals exact,
 * the authors the bounded scan found with their counts, and how many it left out. A value that is not a decimal
 * number fails the read, as in {@link CountsHashOutput}.
 */
final class SampledCounts {

    private SampledCounts() {
    }

    /** @param sample of the hash with total, seen, notices and v named, in this order */
    static UnreadCounts of(long userId, BoundedHashRead.Sample sample) {
        long total = number(userId, sample.named().get(0)), seen = number(userId, sample.named().get(1));
        long notices = number(userId, sample.named().get(2)), version = number(userId, sample.named().get(3));
        int present = (int) sample.named().stream().filter(Objects::nonNull).count();
        Map<Long, Long> authors = new HashMap<>();
        List<String> scanned = sample.scanned();
        for (int i = 0; i + 1 < scanned.size(); i += 2) {
            String field = scanned.get(i);
            if (!Arrays.asList(CountsHashOutput.TOTALS).contains(field)) authors.put(number(userId, field), number(userId, scanned.get(i + 1)));
        }
        long[] ids = new long[authors.size()], counts = new long[authors.size()];
        int next = 0;
        for (Map.Entry<Long, Long> author : authors.entrySet()) {
            ids[next] = author.getKey();
            counts[next++] = author.getValue();
        }
        long omitted = Math.max(0, sample.length() - present - authors.size());
        return new UnreadCounts(userId, total, total - seen, AuthorCounts.of(ids, counts, next), notices, omitted, version);
    }

    private static long number(long userId, String text) {
        if (text == null) return 0;
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new NumberFormatException("counts hash of user " + userId + ": " + CountsHashOutput.notANumber(text));
        }
    }
}
