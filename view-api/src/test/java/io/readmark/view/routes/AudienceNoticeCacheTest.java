package io.readmark.view.routes;

import io.readmark.store.notice.LiveNotice;
import io.readmark.store.notice.LiveNoticeSource;
import io.readmark.store.redis.RedisConnections;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class AudienceNoticeCacheTest {

    private static final LiveNotice NOTICE = new LiveNotice(1, "staff", 1_000, 0);

    /** Answers each load with a future the test completes, and records the audiences asked for. */
    private static final class RecordingSource implements LiveNoticeSource {
        final List<String> asked = new ArrayList<>();
        final List<CompletableFuture<List<LiveNotice>>> loads = new ArrayList<>();

        @Override
        public CompletionStage<List<LiveNotice>> liveNotices(RedisConnections.Connection connection, String audience) {
            asked.add(audience);
            CompletableFuture<List<LiveNotice>> load = new CompletableFuture<>();
            loads.add(load);
            return load;
        }
    }

    private final RecordingSource redis = new RecordingSource();
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final AudienceNoticeCache cache = new AudienceNoticeCache(redis, Duration.ofSeconds(1), nanos::get);

    @Test
    void shouldShareOneLoadAndServeItFromMemoryWithinTheTtl() {
        // Given two readers of the same audience while its load is under way
        CompletionStage<List<LiveNotice>> first = cache.liveNotices(null, "staff");
        CompletionStage<List<LiveNotice>> second = cache.liveNotices(null, "staff");
        // When the load answers
        redis.loads.getFirst().complete(List.of(NOTICE));
        nanos.addAndGet(Duration.ofMillis(999).toNanos());
        // Then both have it, and a read within the TTL asks Redis nothing more
        assertThat(first.toCompletableFuture().join()).containsExactly(NOTICE);
        assertThat(second.toCompletableFuture().join()).containsExactly(NOTICE);
        assertThat(cache.liveNotices(null, "staff").toCompletableFuture().join()).containsExactly(NOTICE);
        assertThat(redis.asked).containsExactly("staff");
    }

    @Test
    void shouldAskRedisAgainOnceTheTtlCountedFromTheLoadHasPassed() {
        cache.liveNotices(null, "staff");
        redis.loads.getFirst().complete(List.of(NOTICE));
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        cache.liveNotices(null, "staff");
        assertThat(redis.asked).containsExactly("staff", "staff");
    }

    @Test
    void shouldNotKeepAFailedLoad() {
        CompletionStage<List<LiveNotice>> failed = cache.liveNotices(null, "staff");
        redis.loads.getFirst().completeExceptionally(new IllegalStateException("Redis down"));
        assertThat(failed.toCompletableFuture()).isCompletedExceptionally();
        cache.liveNotices(null, "staff");
        assertThat(redis.asked).containsExactly("staff", "staff");
    }

    @Test
    void shouldDropAnAudienceOncePerAnnouncedChange() {
        // Given a loaded audience
        cache.liveNotices(null, "staff");
        redis.loads.getFirst().complete(List.of(NOTICE));
        // When its channel announces a publish, heard by two streams
        cache.changed("staff", "published 2");
        cache.liveNotices(null, "staff");
        redis.loads.get(1).complete(List.of());
        cache.changed("staff", "published 2");
        cache.liveNotices(null, "staff");
        // Then Redis is asked once for that change, and again for the next one
        assertThat(redis.asked).containsExactly("staff", "staff");
        cache.changed("staff", "withdrawn 2");
        cache.liveNotices(null, "staff");
        assertThat(redis.asked).containsExactly("staff", "staff", "staff");
    }

    @Test
    void shouldAlwaysAskRedisWhenTheTtlIsZero() {
        AudienceNoticeCache uncached = new AudienceNoticeCache(redis, Duration.ZERO, nanos::get);
        uncached.liveNotices(null, "staff");
        uncached.liveNotices(null, "staff");
        assertThat(redis.asked).containsExactly("staff", "staff");
    }
}
