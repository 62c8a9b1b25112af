package io.readmark.store.unread;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A user's unread count per author, ordered by author id: two arrays behind a read-only map. Every counts read builds
 * one, so it costs two arrays and a sort instead of a boxed tree entry per author; the indexed accessors read it
 * without boxing.
 */
public final class AuthorCounts extends AbstractMap<Long, Long> {

    public static final AuthorCounts NONE = new AuthorCounts(new long[0], new long[0]);

    private final long[] authorIds;
    private final long[] counts;

    private AuthorCounts(long[] authorIds, long[] counts) {
        this.authorIds = authorIds;
        this.counts = counts;
    }

    /** Builds the counts of {@code size} authors, in any order; each author id once (hash fields are unique ids). */
    static AuthorCounts of(long[] authorIds, long[] counts, int size) {
        if (size == 0) return NONE;
        long[] ids = Arrays.copyOf(authorIds, size);
        Arrays.sort(ids);
        long[] values = new long[size];
        for (int i = 0; i < size; i++) values[Arrays.binarySearch(ids, authorIds[i])] = counts[i];
        return new AuthorCounts(ids, values);
    }

    /** The {@code index}-th author id, by ascending id; {@code index} below {@link #size()}. */
    public long authorId(int index) {
        return authorIds[index];
    }

    /** The unread count of the {@code index}-th author. */
    public long count(int index) {
        return counts[index];
    }

    @Override
    public int size() {
        return authorIds.length;
    }

    @Override
    public Long get(Object key) {
        if (!(key instanceof Long authorId)) return null;
        int at = Arrays.binarySearch(authorIds, authorId);
        return at < 0 ? null : counts[at];
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null;
    }

    @Override
    public Set<Map.Entry<Long, Long>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Map.Entry<Long, Long>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < authorIds.length;
                    }

                    @Override
                    public Map.Entry<Long, Long> next() {
                        if (next >= authorIds.length) throw new NoSuchElementException();
                        Map.Entry<Long, Long> entry = Map.entry(authorIds[next], counts[next]);
                        next++;
                        return entry;
                    }
                };
            }

            @Override
            public int size() {
                return authorIds.length;
            }
        };
    }
}
