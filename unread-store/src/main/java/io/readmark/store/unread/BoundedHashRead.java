package io.readmark.store.unread;

import io.readmark.store.redis.RedisConnections;

import io.lettuce.core.MapScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Reads a user's hash with Redis work bounded whatever it holds, where HGETALL would stall Redis's one thread on a hash
 * of a million fields. {@code HSCAN 0 COUNT n} answers a hash of up to about {@code n} fields whole in one call, as
 * cheaply as HGETALL: that is every ordinary user's one round trip. A bigger hash is answered by {@code hash_sample.lua}
 * in a second: its length, the named fields exactly and the fields of one such scan, all of one moment.
 */
public final class BoundedHashRead {

    /** The fields a read asks one HSCAN for by default: a hash up to about this many comes whole. */
    public static final int FIELDS = 1000;

    /**
     * A hash, whole or in part.
     * @param whole  whether {@code fields} is the whole hash
     * @param fields the hash, or the fields of one bounded scan and the named fields wherever they were found
     */
    public record Hash(boolean whole, Map<String, String> fields) {
    }

    /**
     * A sample of a hash too big to read whole, of one moment.
     * @param length  the hash's number of fields
     * @param named   the values of the fields asked for by name, null where absent
     * @param scanned alternating field and value, of one bounded scan (a field may also be a named one)
     */
    public record Sample(long length, List<String> named, List<String> scanned) {
    }

    private BoundedHashRead() {
    }

    /**
     * The hash, whole when one {@code HSCAN} of {@code fields} returns it all; else the fields of one such scan with
     * {@code named} read exactly.
     */
    public static CompletionStage<Hash> readAsync(RedisConnections.Connection connection, String key, int fields, String... named) {
        return connection.async().hscan(key, ScanCursor.INITIAL, ScanArgs.Builder.limit(fields)).thenCompose(scan -> scan.isFinished()
                ? CompletableFuture.completedFuture(new Hash(true, scan.getMap()))
                : sampleAsync(connection, key, fields, named).thenApply(sample -> hash(sample, named)));
    }

    /** As {@link #readAsync}, blocking. */
    public static Hash read(RedisConnections.Connection connection, String key, int fields, String... named) {
        MapScanCursor<String, String> scan = connection.sync().hscan(key, ScanCursor.INITIAL, ScanArgs.Builder.limit(fields));
        return scan.isFinished() ? new Hash(true, scan.getMap()) : hash(sample(connection, key, fields, named), named);
    }

    /** One look at a hash too big to read whole: its length, the named fields, the fields of one bounded scan. */
    static CompletionStage<Sample> sampleAsync(RedisConnections.Connection connection, String key, int fields, String... named) {
        return ReadScript.HASH_SAMPLE.call(connection.async(), new String[] {key}, args(fields, named)).thenApply(BoundedHashRead::sample);
    }

    /** As {@link #sampleAsync}, blocking. */
    static Sample sample(RedisConnections.Connection connection, String key, int fields, String... named) {
        return sample(ReadScript.HASH_SAMPLE.run(connection.sync(), new String[] {key}, args(fields, named)));
    }

    private static String[] args(int fields, String[] named) {
        String[] args = new String[named.length + 1];
        args[0] = Integer.toString(fields);
        System.arraycopy(named, 0, args, 1, named.length);
        return args;
    }

    @SuppressWarnings("unchecked")
    private static Sample sample(List<Object> reply) {
        return new Sample((Long) reply.get(0), strings((List<Object>) reply.get(1)), strings((List<Object>) reply.get(2)));
    }

    private static List<String> strings(List<Object> values) {
        List<String> strings = new ArrayList<>(values.size());
        for (Object value : values) strings.add((String) value);
        return strings;
    }

    private static Hash hash(Sample sample, String[] named) {
        Map<String, String> fields = new HashMap<>();
        for (int i = 0; i + 1 < sample.scanned().size(); i += 2) fields.put(sample.scanned().get(i), sample.scanned().get(i + 1));
        for (int i = 0; i < named.length; i++) {
            if (sample.named().get(i) != null) fields.put(named[i], sample.named().get(i));
            else fields.remove(named[i]);
        }
        return new Hash(false, fields);
    }
}
