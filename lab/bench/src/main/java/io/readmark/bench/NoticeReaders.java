package io.readmark.bench;

import io.lettuce.core.CopyArgs;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Users for the counts route with notices: user {@code u + }{@value #OFFSET} has user u's blog counts, joined two
 * audiences of {@value #PER_AUDIENCE} live notices each before they were published, and read {@value #READ} of them,
 * so the answer counts {@link #UNREAD} notices. Their only difference from user u is the notices, so the two counts
 * variants compare exactly what notices cost a read. The state is written as the scripts leave it (the publish
 * phase measures the scripts themselves); nobody else joins those audiences, and everyone's audience stays empty.
 * Nobody reads a notice during the load either: the badge reads between changes, which a view API answers from the
 * read marks it kept; only a read right after a change asks Redis for them.
 */
final class NoticeReaders {

    static final long OFFSET = 1_000_000_000L;
    static final List<String> AUDIENCES = List.of("bench-a", "bench-b");
    static final int PER_AUDIENCE = 10;
    static final int READ = 5;
    static final long UNREAD = (long) AUDIENCES.size() * PER_AUDIENCE - READ;
    private static final long JOINED_AT = 1_767_225_600_000L;
    private static final int BATCH = 1_000;

    private NoticeReaders() {
    }

    static void prepare(RedisConnections redis, UnreadKeys keys, int users) {
        NoticeKeys noticeKeys = new NoticeKeys(keys.prefix());
        RedisClusterAsyncCommands<String, String> async = redis.shared().async();
        long notice = 1;
        for (String audience : AUDIENCES) {
            for (int i = 0; i < PER_AUDIENCE; i++, notice++) {
                await(async.zadd(noticeKeys.audienceNotices(audience), JOINED_AT + notice * 1_000, Long.toString(notice)));
            }
        }
        for (int from = 1; from <= users; from += BATCH) {
            int to = Math.min(users, from + BATCH - 1);
            List<RedisFuture<?>> writes = new ArrayList<>();
            for (long user = from; user <= to; user++) {
                long reader = user + OFFSET;
                // h as it is (its records are bytes a text codec would mangle): the counts route reads only h.
                writes.add(async.copy(keys.h(user), keys.h(reader), CopyArgs.Builder.replace(true)));
                for (String audience : AUDIENCES) writes.add(async.hset(noticeKeys.audiences(reader), audience, "J" + JOINED_AT));
                for (long read = 1; read <= READ; read++) {
                    writes.add(async.zadd(noticeKeys.noticeReads(reader), JOINED_AT + 100_000, Long.toString(read)));
                }
                // notice_read.lua stamps every change of the marks: the last one's stamp, as it writes it.
                writes.add(async.hset(noticeKeys.audiences(reader), NoticeKeys.READS_STAMP, (JOINED_AT + 100_000) * 1_000 + "." + READ));
            }
            writes.forEach(NoticeReaders::await);
        }
    }

    static ConcurrentLoad.ClientFactory countsClients(String host, int port) {
        return ReadApiPhase.countsClients(host, port, OFFSET, UNREAD);
    }

    private static <T> T await(RedisFuture<T> future) {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot prepare the notice readers", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
