package io.readmark.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * Seed 000's unread count, as the seed runs it: one bitmap per notice ({@code notice:<platform>:<msgId>}, bit
 * userId set = read), counted by a Lua script that lists the notices with {@code KEYS}, MGETs them and loops
 * GETBIT. Runs in database 0 beside the platform's own keys (KEYS scans every key there, which is the seed's
 * lesson) and, for contrast, in an otherwise empty database 1.
 */
final class Seed000Counts implements AutoCloseable {

    /** The seed's READ_COUNT_SCRIPT, verbatim apart from line breaks. */
    static final String READ_COUNT_SCRIPT = """
            local noticeKeys = redis.call('keys', KEYS[1]);
            local unread = 0;
            local read = 0;
            if next(noticeKeys) == nil then return unread .. ':' .. read;end;
            local values = redis.call('mget', unpack(noticeKeys));
            for i = 1, #noticeKeys do
              if(redis.call('getbit', noticeKeys[i], ARGV[1]) == 0)
                then unread = unread + 1;
              else read = read + 1;
              end;
            end;
            return unread .. ':' .. read;""";
    static final String PLATFORM = "1";
    static final int ISOLATED_DATABASE = 1;

    private final RedisClient client;
    private final String redisUrl;
    private final int notices;
    private String sha;

    Seed000Counts(String redisUrl, int notices) {
        this.redisUrl = redisUrl;
        this.notices = notices;
        this.client = RedisClient.create();
    }

    /** Writes the notices into {@code database}: each user has read each notice with probability one half. */
    void writeNotices(int database, int users, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE, uri(database))) {
            RedisCommands<byte[], byte[]> sync = connection.sync();
            for (int msgId = 1; msgId <= notices; msgId++) {
                // Built here and SET whole: a SETBIT per (notice, user) would cost a round trip per bit.
                byte[] bitmap = new byte[users / 8 + 1];
                for (int user = 1; user <= users; user++) {
                    if (random.nextBoolean()) bitmap[user >>> 3] |= (byte) (0x80 >>> (user & 7)); // bit 0 is the MSB, as SETBIT
                }
                sync.set(bytes("notice:" + PLATFORM + ":" + msgId), bitmap);
            }
            sha = sync.scriptLoad(READ_COUNT_SCRIPT);
        }
    }

    /** A client of one database, for {@link ConcurrentLoad}: one script call per request, answer checked. */
    ConcurrentLoad.Client open(int database) {
        StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE, uri(database));
        byte[][] keys = {bytes("notice:" + PLATFORM + ":*")};
        return new ConcurrentLoad.Client() {
            @Override
            public void call(long userId) {
                byte[] answer = connection.sync().evalsha(sha, ScriptOutputType.VALUE, keys, bytes(Long.toString(userId)));
                String[] unreadAndRead = new String(answer, StandardCharsets.UTF_8).split(":");
                if (Long.parseLong(unreadAndRead[0]) + Long.parseLong(unreadAndRead[1]) != notices) {
                    throw new IllegalStateException("seed 000 count saw " + new String(answer, StandardCharsets.UTF_8)
                            + ", expected " + notices + " notices");
                }
            }

            @Override
            public void close() {
                connection.close();
            }
        };
    }

    private RedisURI uri(int database) {
        RedisURI uri = RedisURI.create(redisUrl);
        uri.setDatabase(database);
        // One count MGETs every notice; on a big keyspace that takes far longer than Lettuce's usual bound.
        uri.setTimeout(Duration.ofSeconds(60));
        return uri;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
