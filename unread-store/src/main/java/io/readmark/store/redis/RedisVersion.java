package io.readmark.store.redis;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a Redis server supports, from its {@code INFO server} reply. */
public final class RedisVersion {

    private static final Pattern VERSION = Pattern.compile("(?m)^redis_version:(\\d+)\\.");

    private RedisVersion() {
    }

    /**
     * Whether the server has sharded Pub/Sub (SSUBSCRIBE, SPUBLISH): from 7.0, the same test the scripts make
     * ({@code redis.REDIS_VERSION_NUM} exists from 7.0), so publisher and subscriber always agree.
     */
    public static boolean hasShardedPubSub(String infoServer) {
        Matcher version = VERSION.matcher(infoServer);
        return version.find() && Integer.parseInt(version.group(1)) >= 7;
    }
}
