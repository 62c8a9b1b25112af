package io.readmark.store.unread;

/**
 * Told which users a write is about to change, before {@link UnreadWriter} queues it, so they can be made ready first:
 * during an upgrade of the Redis layout, a user still on the previous layout is converted before this release's
 * scripts touch its keys. Called once per script call, on the writer's thread; a retry of the call does not call it
 * again. It returns only when the users may be written, so a failure it cannot ride out is the writer's failure.
 */
@FunctionalInterface
public interface WriteGuard {

    /** Lets every write through as it is: nothing to prepare. */
    WriteGuard NONE = users -> { };

    /** @param users each user the call writes, once; none for a call that writes only an audience's notices */
    void beforeWriting(long[] users);
}
