package io.readmark.processor.fanout;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** This process's big-V backlog: followers not yet put into chunks, summed over the schedulers of its tasks. */
public final class FanoutBacklog {

    private final Set<FanoutScheduler> schedulers = ConcurrentHashMap.newKeySet();

    public void add(FanoutScheduler scheduler) {
        schedulers.add(scheduler);
    }

    /** A task that closes (rebalance, shutdown) takes its jobs along; another instance resumes and reports them. */
    public void remove(FanoutScheduler scheduler) {
        schedulers.remove(scheduler);
    }

    public long pendingFollowers() {
        return schedulers.stream().mapToLong(FanoutScheduler::pendingFollowers).sum();
    }
}
