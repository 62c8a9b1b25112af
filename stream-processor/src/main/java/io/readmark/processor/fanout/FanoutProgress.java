package io.readmark.processor.fanout;

import io.readmark.schemas.FanoutChunk;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Followers applied per big-V fan-out by this worker process: logs progress (done/total, rate) and, once every
 * follower is applied, that the fan-out completed and how long it took. Exact with one worker process; with
 * several, each reports its share.
 */
public final class FanoutProgress {

    private static final Logger log = LoggerFactory.getLogger(FanoutProgress.class);
    private static final int MAX_TRACKED_JOBS = 10_000;
    private static final long LOG_INTERVAL_MS = 5_000;

    private record Seen(long applied, long lastLogAt) {
    }

    private final Map<String, Seen> jobs = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Seen> eldest) {
            return size() > MAX_TRACKED_JOBS;
        }
    };

    synchronized void applied(FanoutChunk chunk, long nowMillis) {
        Seen before = jobs.getOrDefault(chunk.jobId(), new Seen(0, nowMillis));
        long applied = before.applied() + chunk.followerIds().size();
        long elapsed = Math.max(1, nowMillis - chunk.jobStartedAtMillis());
        if (applied >= chunk.jobFollowers()) {
            jobs.remove(chunk.jobId());
            log.atInfo().addKeyValue("job", chunk.jobId()).addKeyValue("author", chunk.authorId())
                    .addKeyValue("followers", applied).addKeyValue("tookMs", elapsed)
                    .addKeyValue("followersPerSecond", applied * 1000 / elapsed).log("fan-out complete");
            return;
        }
        boolean logNow = nowMillis - before.lastLogAt() >= LOG_INTERVAL_MS;
        if (logNow) {
            log.atInfo().addKeyValue("job", chunk.jobId()).addKeyValue("applied", applied)
                    .addKeyValue("followers", chunk.jobFollowers())
                    .addKeyValue("followersPerSecond", applied * 1000 / elapsed).log("fan-out progress");
        }
        jobs.put(chunk.jobId(), new Seen(applied, logNow ? nowMillis : before.lastLogAt()));
    }
}
