package io.readmark.bench.layouts;

import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadCounts;
import io.readmark.store.unread.UnreadItem;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadPage;
import io.readmark.store.unread.UnreadReader;
import io.readmark.store.unread.UnreadWriter;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Layout L0, today's: the product's own {@link UnreadWriter} and {@link UnreadReader} on its keys (per author a sorted
 * set, the counts, marks, floors and merged index of each user), exactly as the bench's memory phase writes them. An
 * AllRead is the product's chain of scan and per-author scripts, its notice floor included.
 */
public final class ProductLayout implements Layout {

    private static final int MAX_PENDING = 10_000;

    private final RedisConnections.Connection reads;
    private final UnreadWriter writer;
    private final UnreadReader reader;

    public ProductLayout(RedisConnections redis, UnreadLimits limits) {
        UnreadKeys keys = new UnreadKeys(UnreadKeys.DEFAULT_PREFIX);
        this.reads = redis.open();
        this.writer = new UnreadWriter(redis.openBinary(), keys, limits, MAX_PENDING);
        this.reader = new UnreadReader(reads, keys);
    }

    @Override
    public String name() {
        return "L0";
    }

    @Override
    public Map<String, String> redisConfig() {
        return Map.of();
    }

    @Override
    public Set<String> commandsOf(Operation operation) {
        return switch (operation) {
            case COUNTS -> Set.of("hgetall");
            case AUTHOR_PAGE -> Set.of("zrevrangebyscore", "zcount");
            default -> Set.of("evalsha");
        };
    }

    @Override
    public void deliver(long userId, long authorId, long blogId, long publishedAtMillis) {
        writer.deliver(userId, authorId, blogId, publishedAtMillis);
    }

    @Override
    public void read(long userId, long authorId, long blogId, long readAtMillis) {
        writer.remove(userId, authorId, blogId, readAtMillis);
    }

    @Override
    public void readAll(long userId, long authorId, long readAtMillis) {
        writer.readAll(userId, authorId, readAtMillis);
    }

    @Override
    public void allRead(long userId, long readAtMillis) {
        writer.allRead(userId, readAtMillis);
    }

    @Override
    public void awaitWritten() {
        writer.awaitAcknowledged();
    }

    @Override
    public Counts counts(long userId) {
        UnreadCounts counts = reader.counts(userId);
        return new Counts(counts.total(), new LinkedHashMap<>(counts.byAuthor()));
    }

    @Override
    public Page authorPage(long userId, long authorId, int limit, String cursor) {
        return page(reader.page(userId, authorId, limit, cursor));
    }

    @Override
    public Page mergedPage(long userId, int limit, String cursor) {
        return page(reader.mergedPage(userId, limit, cursor));
    }

    private static Page page(UnreadPage page) {
        List<Item> items = page.items().stream().map(ProductLayout::item).toList();
        return new Page(items, page.nextCursor());
    }

    private static Item item(UnreadItem item) {
        return new Item(item.blogId(), item.authorId(), item.publishedAt().getEpochSecond());
    }

    @Override
    public void close() {
        writer.close(); // and its connection
        reads.close();
    }
}
