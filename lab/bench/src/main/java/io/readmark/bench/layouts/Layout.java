package io.readmark.bench.layouts;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One candidate Redis layout of the unread state, as the layout study drives it: the same changes and reads whatever
 * the keys look like underneath. Writes are pipelined and applied once {@link #awaitWritten()} returns; reads answer
 * at once. Every layout keeps the product's rules for what it implements: a replayed delivery changes nothing, counts
 * equal the entries kept, a read removes the entry and keeps a later delivery of it out, a read-all (of one author or
 * of everything) up to a moment removes what is that old and keeps later deliveries of older posts out, and both pages
 * run newest first without gaps or repeats. Used by one thread.
 */
public interface Layout extends AutoCloseable {

    /** What the study measures the Redis CPU of, one operation kind at a time. */
    enum Operation { DELIVER, DELIVER_BURST, COUNTS, AUTHOR_PAGE, MERGED_PAGE, READ, AUTHOR_READ_ALL, ALL_READ }

    /** A user's counts: the total and one count per author with unread. */
    record Counts(long total, Map<Long, Long> byAuthor) {
    }

    /** One unread blog on a page; {@code publishedAtSeconds} since the Unix epoch. */
    record Item(long blogId, long authorId, long publishedAtSeconds) {
    }

    /** A newest-first page; {@code cursor} continues after its last item, null on the last page. */
    record Page(List<Item> items, String cursor) {
    }

    /** Short name for the tables: L0, A, B. */
    String name();

    /**
     * Redis settings this layout relies on, applied (over Redis's defaults) before it is measured: a layout that needs
     * more than the defaults says so here, and the report prints it.
     */
    Map<String, String> redisConfig();

    /**
     * The commands this layout sends to Redis itself for {@code operation} (lower case, as INFO commandstats names
     * them), so that their {@code usec} is its Redis CPU: commands a script calls are counted in the script's time
     * as well, so only the commands sent from outside are summed.
     */
    Set<String> commandsOf(Operation operation);

    void deliver(long userId, long authorId, long blogId, long publishedAtMillis);

    /**
     * Whether {@link #deliverToEach} sends one script for all its users, as the product's fan-out sends each burst of a
     * big-V's followers: only such a layout is measured for bursts.
     */
    default boolean deliversInBursts() {
        return false;
    }

    /** As {@link #deliver} to each user, in one script; only on a layout that {@link #deliversInBursts()}. */
    default void deliverToEach(List<Long> userIds, long authorId, long blogId, long publishedAtMillis) {
        throw new UnsupportedOperationException("layout " + name() + " has no burst delivery");
    }

    void read(long userId, long authorId, long blogId, long readAtMillis);

    void readAll(long userId, long authorId, long readAtMillis);

    void allRead(long userId, long readAtMillis);

    /** Returns once Redis applied every write sent so far. */
    void awaitWritten();

    Counts counts(long userId);

    /** @param cursor null for the first page */
    Page authorPage(long userId, long authorId, int limit, String cursor);

    /** @param cursor null for the first page */
    Page mergedPage(long userId, int limit, String cursor);

    @Override
    void close();
}
