package io.readmark.store.notice;

import java.util.Arrays;
import java.util.List;

/**
 * Notice ids, sorted and distinct, in a {@code long[]}: the ids a counts read asks read marks for and the ids marked.
 * A counts read with notices handles a few dozen of them per request, so no boxing and no hash sets.
 */
final class NoticeIds {

    static final NoticeIds NONE = new NoticeIds(new long[0]);

    private final long[] sorted;

    private NoticeIds(long[] sorted) {
        this.sorted = sorted;
    }

    static NoticeIds of(List<LiveNotice> notices) {
        if (notices.isEmpty()) return NONE;
        long[] ids = new long[notices.size()];
        for (int i = 0; i < ids.length; i++) ids[i] = notices.get(i).noticeId();
        return sortedDistinct(ids, ids.length);
    }

    /** From ids in any order, with repeats; the array is taken over. */
    static NoticeIds sortedDistinct(long[] ids, int length) {
        if (length == 0) return NONE;
        Arrays.sort(ids, 0, length);
        int distinct = 1;
        for (int i = 1; i < length; i++) {
            if (ids[i] != ids[distinct - 1]) ids[distinct++] = ids[i];
        }
        return new NoticeIds(distinct == ids.length ? ids : Arrays.copyOf(ids, distinct));
    }

    int size() {
        return sorted.length;
    }

    boolean isEmpty() {
        return sorted.length == 0;
    }

    long get(int index) {
        return sorted[index];
    }

    boolean contains(long id) {
        return Arrays.binarySearch(sorted, id) >= 0;
    }

    /** These ids less those of {@code other}. */
    NoticeIds without(NoticeIds other) {
        if (other.isEmpty() || isEmpty()) return this;
        long[] kept = new long[sorted.length];
        int length = 0;
        for (long id : sorted) {
            if (!other.contains(id)) kept[length++] = id;
        }
        return length == sorted.length ? this : new NoticeIds(Arrays.copyOf(kept, length)); // still sorted and distinct
    }

    NoticeIds union(NoticeIds other) {
        if (other.isEmpty()) return this;
        if (isEmpty()) return other;
        long[] both = Arrays.copyOf(sorted, sorted.length + other.sorted.length);
        System.arraycopy(other.sorted, 0, both, sorted.length, other.sorted.length);
        return sortedDistinct(both, both.length);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof NoticeIds ids && Arrays.equals(sorted, ids.sorted);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(sorted);
    }

    @Override
    public String toString() {
        return Arrays.toString(sorted);
    }
}
