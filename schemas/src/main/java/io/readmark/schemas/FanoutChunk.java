package io.readmark.schemas;

import java.util.List;

/**
 * One bounded slice of a big-V fan-out on the internal fan-out topic: deliver a blog to, or remove it from, these
 * followers of its author. Applying a chunk twice changes nothing, so chunks may be re-sent after a crash.
 * {@code jobFollowers} and {@code jobStartedAtMillis} describe the whole fan-out, for progress reports.
 * A {@code NOTICE} chunk sends a targeted notice to some of its recipients: {@code blogId} is then the noticeId,
 * {@code authorId} 0 and {@code followerIds} the recipients.
 */
public record FanoutChunk(String jobId, Kind kind, long authorId, long blogId, long atMillis,
                          long jobFollowers, long jobStartedAtMillis, List<Long> followerIds) {

    public enum Kind { DELIVER, REMOVE, NOTICE }

    public FanoutChunk {
        if (jobId == null || jobId.isBlank()) throw new InvalidEventException("jobId", "is required");
        if (kind == null) throw new InvalidEventException("kind", "is required");
        if (kind != Kind.NOTICE) Validation.positive("authorId", authorId);
        Validation.positive("blogId", blogId);
        if (followerIds == null || followerIds.isEmpty()) throw new InvalidEventException("followerIds", "must not be empty");
        for (Long follower : followerIds) {
            // Each one names a user whose keys the worker writes.
            if (follower == null || follower <= 0) {
                throw new InvalidEventException("followerIds", "must hold positive 64-bit integers only, had " + follower);
            }
        }
        followerIds = List.copyOf(followerIds);
    }
}
