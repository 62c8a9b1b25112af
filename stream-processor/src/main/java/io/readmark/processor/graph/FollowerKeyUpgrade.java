package io.readmark.processor.graph;

import io.readmark.store.unread.UnreadKeys;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Moves the follower pairs of a store written with the former key {@code authorId ‖ followerId} (16 bytes) to
 * {@link FollowerGraph}'s {@code authorId ‖ slot ‖ followerId}, before the task walks or changes any pair. Each pair
 * is written under its new key before its old key is deleted, so a crash midway loses no follow and the next start
 * moves the rest; a marker entry, written once none is left, spares later starts the scan.
 */
public final class FollowerKeyUpgrade {

    private static final Logger log = LoggerFactory.getLogger(FollowerKeyUpgrade.class);
    private static final int OLD_KEY_BYTES = 2 * Long.BYTES;
    /** One byte: shorter than an author id, so it sorts outside every author's range. */
    static final Bytes CONVERTED = Bytes.wrap(new byte[]{'2'});
    /** Pairs read before they are rewritten: the scan never holds more, and never writes under an open iterator. */
    private static final int BATCH = 10_000;

    private FollowerKeyUpgrade() {
    }

    /** Converts what is left of the old keys, unless the marker says none is; returns how many pairs moved. */
    public static long run(KeyValueStore<Bytes, byte[]> pairs) {
        if (pairs.get(CONVERTED) != null) return 0;
        long moved = 0;
        Bytes from = null;
        while (true) {
            List<KeyValue<Bytes, byte[]>> old = new ArrayList<>();
            Bytes last = null;
            try (KeyValueIterator<Bytes, byte[]> all = from == null ? pairs.all() : pairs.range(from, null)) {
                while (all.hasNext() && old.size() < BATCH) {
                    KeyValue<Bytes, byte[]> pair = all.next();
                    last = pair.key;
                    if (pair.key.get().length == OLD_KEY_BYTES) old.add(pair);
                }
                if (!all.hasNext()) last = null;
            }
            for (KeyValue<Bytes, byte[]> pair : old) {
                ByteBuffer key = ByteBuffer.wrap(pair.key.get());
                long author = key.getLong(0);
                long follower = key.getLong(Long.BYTES);
                pairs.put(FollowerGraph.key(author, UnreadKeys.slot(follower), follower), pair.value);
                pairs.delete(pair.key);
            }
            moved += old.size();
            if (last == null) break;
            from = last;
        }
        pairs.put(CONVERTED, new byte[0]);
        if (moved > 0) log.atInfo().addKeyValue("pairs", moved).log("follower pairs moved to keys ordered by Redis slot");
        return moved;
    }
}
