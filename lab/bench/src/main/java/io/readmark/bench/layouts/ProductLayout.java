package io.readmark.bench.layouts;

import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.ListpackSettingCheck;
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
 * Layout A, the product's: its own {@link UnreadWriter} and {@link UnreadReader} on its keys (each user's z of blog ids
 * by second and h of packed records with the counts, beside the floors hash), exactly as the bench's memory phase
 * writes them, on the listpack thresholds the product is deployed with ({@link ListpackSettingCheck}). A/stock is
 * the same on Redis's stock thresholds, to show what those settings buy.
 */
public final class ProductLayout implements Layout {

    private static final int MAX_PENDING = 10_000;
    /** Redis's own thresholds, by the names Redis 6.2 knows too (7.0 takes them for the listpack settings). */
    static final Map<String, String> STOCK = Map.of("zset-max-ziplist-entries", "128", "hash-max-ziplist-value", "64");

    private final String name;
    private final Map<String, String> redisConfig;
    private final RedisConnections.Connection reads;
    private final UnreadWriter writer;
    private final UnreadReader reader;

    /** A: on the thresholds the product is deployed with. */
    public ProductLayout(RedisConnections redis, UnreadLimits limits) {
        this(redis, limits, "A", Map.of("zset-max-ziplist-entries", Integer.toString(ListpackSettingCheck.Z_ENTRIES),
                "hash-max-ziplist-value", Integer.toString(ListpackSettingCheck.H_VALUE)));
    }

    /** A/stock: on Redis's stock thresholds, where a user's z past 128 entries is a skiplist and h past 64-byte values a hashtable. */
    public static ProductLayout onStockListpacks(RedisConnections redis, UnreadLimits limits) {
        return new ProductLayout(redis, limits, "A/stock", STOCK);
    }

    private ProductLayout(RedisConnections redis, UnreadLimits limits, String name, Map<String, String> redisConfig) {
        UnreadKeys keys = new UnreadKeys(UnreadKeys.DEFAULT_PREFIX);
        this.name = name;
        this.redisConfig = redisConfig;
        this.reads = redis.open();
        this.writer = new UnreadWriter(redis.openBinary(), keys, limits, MAX_PENDING);
        this.reader = new UnreadReader(reads, keys);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Map<String, String> redisConfig() {
        return redisConfig;
    }

    /** Every read and write of the product's is one script. */
    @Override
    public Set<String> commandsOf(Operation operation) {
        // Every operation is a script but the counts read, a plain HGETALL of h.
        return Set.of(operation == Operation.COUNTS ? "hgetall" : "evalsha");
    }

    @Override
    public void deliver(long userId, long authorId, long blogId, long publishedAtMillis) {
        writer.deliver(userId, authorId, blogId, publishedAtMillis);
    }

    @Override
    public boolean deliversInBursts() {
        return true;
    }

    @Override
    public void deliverToEach(List<Long> userIds, long authorId, long blogId, long publishedAtMillis) {
        writer.deliverToEach(userIds, authorId, blogId, publishedAtMillis);
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
