package io.readmark.store.reconcile;

import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadScript;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The writes of the release before z and h, with its own scripts (kept unchanged under {@code previous/} by the module
 * previous-release) and their KEYS and ARGV as that release's writer sent them: the state a deployment upgrades from.
 */
final class PreviousLayoutWriter {

    private static final String[] HELPERS = {"members.lua", "counters.lua", "notify.lua", "notices.lua"};

    private final RedisClusterCommands<byte[], byte[]> redis;
    private final UnreadKeys keys;
    private final NoticeKeys noticeKeys;
    private final String deliverOne = script("deliver.lua", "deliver_one.lua");
    private final String removeOne = script("remove.lua", "remove_one.lua");
    private final String readAll = script("read_all.lua");
    private final String inboxSeen = script("inbox_seen.lua");
    private final String noticeSend = script("notice_send.lua");

    PreviousLayoutWriter(RedisClusterCommands<byte[], byte[]> redis, UnreadKeys keys) {
        this.redis = redis;
        this.keys = keys;
        this.noticeKeys = new NoticeKeys(keys.prefix());
    }

    void deliver(long user, long author, long blog, long publishedAt, int cap) {
        run(deliverOne, userKeys(user, author), text(author), text(blog), text(publishedAt), text(cap), member(author, blog));
    }

    void remove(long user, long author, long blog, long at, int maxMarks) {
        run(removeOne, userKeys(user, author), text(author), text(blog), text(at), text(maxMarks), member(author, blog), bytes("read"));
    }

    void readAll(long user, long author, long readAt) {
        run(readAll, new byte[][]{bytes(keys.unread(user, author)), bytes(keys.counts(user)), bytes(keys.floors(user)),
                bytes(keys.merged(user)), bytes(keys.live(user)), bytes(keys.changes(user))},
                text(author), text(readAt), ByteBuffer.allocate(8).putLong(author).array());
    }

    void inboxSeen(long user, long seenAt) {
        run(inboxSeen, new byte[][]{bytes(keys.floors(user)), bytes(keys.counts(user)), bytes(keys.merged(user)),
                bytes(keys.live(user)), bytes(keys.changes(user))}, text(seenAt));
    }

    void noticeSent(long user, long notice, long sentAt) {
        run(noticeSend, new byte[][]{bytes(noticeKeys.inbox(user)), bytes(keys.counts(user)), bytes(noticeKeys.noticeReads(user)),
                bytes(keys.floors(user)), bytes(keys.live(user)), bytes(keys.changes(user))}, text(notice), text(sentAt), text(1_000));
    }

    private byte[][] userKeys(long user, long author) {
        return new byte[][]{bytes(keys.unread(user, author)), bytes(keys.counts(user)), bytes(keys.marks(user)),
                bytes(keys.floors(user)), bytes(keys.merged(user)), bytes(keys.live(user)), bytes(keys.changes(user))};
    }

    private void run(String script, byte[][] scriptKeys, byte[]... args) {
        redis.eval(script, ScriptOutputType.INTEGER, scriptKeys, args);
    }

    private static byte[] member(long author, long blog) {
        return ByteBuffer.allocate(16).putLong(author).putLong(blog).array();
    }

    private static byte[] text(long value) {
        return bytes(Long.toString(value));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String script(String... files) {
        StringBuilder body = new StringBuilder();
        for (String helper : HELPERS) body.append(previous(helper)).append('\n');
        for (String file : files) body.append(previous(file)).append('\n');
        return body.toString();
    }

    private static String previous(String name) {
        try (InputStream in = UnreadScript.class.getResourceAsStream("/io/readmark/store/previous/" + name)) {
            if (in == null) throw new IllegalStateException("missing " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
