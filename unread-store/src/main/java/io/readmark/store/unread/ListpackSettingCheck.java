package io.readmark.store.unread;

import io.readmark.store.redis.RedisConnections;

import io.lettuce.core.RedisException;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Compares Redis's listpack thresholds with what the layout is sized for, so that an operator learns from the log
 * rather than from memory use: a user's z stays a listpack up to {@code zset-max-listpack-entries}, which
 * {@value #Z_ENTRIES} keeps above the default caps of unread entries and read marks together, and h while each author's
 * records fit {@code hash-max-listpack-value} ({@value #H_VALUE} bytes, 42 records); below them they turn into a
 * skiplist or a hash table early, correct but several times the memory. Nothing is said when Redis does not let the
 * processor read its configuration.
 */
public final class ListpackSettingCheck {

    public static final int Z_ENTRIES = 2048, H_VALUE = 512;
    private static final Map<String, Integer> EXPECTED = Map.of("zset-max-listpack-entries", Z_ENTRIES, "hash-max-listpack-value", H_VALUE);

    private ListpackSettingCheck() {
    }

    /** The warning to log, if a threshold is below what the layout is sized for. */
    public static Optional<String> warning(RedisConnections.Connection redis) {
        StringBuilder low = new StringBuilder(), wanted = new StringBuilder();
        for (String setting : List.of("zset-max-listpack-entries", "hash-max-listpack-value")) {
            Map<String, String> value;
            try {
                value = redis.sync().configGet(setting);
            } catch (RedisException e) {
                return Optional.empty(); // no permission (the ACL denies CONFIG) or Redis not answering now
            }
            String found = value.get(setting);
            if (found != null && Long.parseLong(found) < EXPECTED.get(setting)) {
                low.append(low.isEmpty() ? "" : ", ").append(setting).append(' ').append(found);
                wanted.append(wanted.isEmpty() ? "" : ", ").append(setting).append(' ').append(EXPECTED.get(setting));
            }
        }
        if (low.isEmpty()) return Optional.empty();
        return Optional.of("Redis has " + low + ": users' unread keys leave the compact encoding early and take several"
                + " times the memory; set " + wanted);
    }
}
