package io.readmark.reliability;

/**
 * Event times in epoch ms that strictly increase, so that "before" in production order is "earlier" for the
 * processor too: each event's instant and its Kafka record timestamp. Kept near the wall clock, because Kafka
 * applies retention to record timestamps.
 */
final class LogicalClock {

    private long last;

    long next() {
        last = Math.max(last + 1, System.currentTimeMillis());
        return last;
    }
}
