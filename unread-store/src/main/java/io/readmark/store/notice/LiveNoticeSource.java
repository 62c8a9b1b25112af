package io.readmark.store.notice;

import io.readmark.store.redis.RedisConnections;

import io.lettuce.core.ScoredValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Where an audience's live notices come from: Redis itself ({@link #direct}), or a cache in front of it (the view
 * API's). The notices of an audience are the same for every member, so one read serves them all.
 */
public interface LiveNoticeSource {

    /** The audience's live notices, newest first: at most the audience's cap, expired ones included. */
    CompletionStage<List<LiveNotice>> liveNotices(RedisConnections.Connection connection, String audience);

    /** Reads Redis every time: two commands in the audience's slot, pipelined. */
    static LiveNoticeSource direct(NoticeKeys keys) {
        return (connection, audience) -> {
            CompletionStage<List<ScoredValue<String>>> notices = connection.async().zrevrangeWithScores(keys.audienceNotices(audience), 0, -1);
            CompletionStage<Map<String, String>> expiry = connection.async().hgetall(keys.audienceExpiry(audience));
            return notices.thenCombine(expiry, (scored, expiries) -> {
                List<LiveNotice> live = new ArrayList<>(scored.size());
                for (ScoredValue<String> entry : scored) {
                    String expiresAt = expiries.get(entry.getValue());
                    live.add(new LiveNotice(Long.parseLong(entry.getValue()), audience, (long) entry.getScore(),
                            expiresAt == null ? 0 : Long.parseLong(expiresAt)));
                }
                return List.copyOf(live);
            });
        };
    }
}
