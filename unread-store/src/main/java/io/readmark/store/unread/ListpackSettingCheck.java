package io.readmark.store.unread;

import io.readmark.store.redis.RedisConnections;

import io.lettuce.core.RedisException;

import java.util.Map;
import java.util.Optional;

/**
 * Compares Redis's listpack thresholds with what the layout is sized for, so that an operator learns from the log
 * rather than from memory use: a user's z stays a listpack (about 12 bytes an entry) up to
 * {@code zset-max-listpack-entries}, and h while each author's records fit {@code hash-max-listpack-value}; below
 * {@value #EXPECTED} they turn into a skiplist or a hash table early, correct but several times the memory. Nothing is
 * said when Redis does not let the processor read its configuration.
 */
public final class ListpackSettingCheck {

    public static final int EXPECTED = 512;
    private static final String[] SETTINGS = {"zset-max-listpack-entries", "hash-max-listpack-value"};

    private ListpackSettingCheck() {
    }

    /** The warning to log, if a threshold is below {@value #EXPECTED}. */
    public static Optional<String> warning(RedisConnections.Connection redis) {
        StringBuilder low = new StringBuilder();
        for (String setting : SETTINGS) {
            Map<String, String> value;
            try {
                value = redis.sync().configGet(setting);
            } catch (RedisException e) {
                return Optional.empty(); // no permission (the ACL denies CONFIG) or Redis not answering now
            }
            String found = value.get(setting);
            if (found != null && Long.parseLong(found) < EXPECTED) {
                low.append(low.isEmpty() ? "" : ", ").append(setting).append(' ').append(found);
            }
        }
        if (low.isEmpty()) return Optional.empty();
        return Optional.of("Redis has " + low + ": users' unread keys leave the compact encoding early and take several"
                + " times the memory; set both to " + EXPECTED);
    }
}
