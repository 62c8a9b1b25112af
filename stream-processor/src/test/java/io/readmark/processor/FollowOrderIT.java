package io.readmark.processor;

import io.readmark.processor.commit.ThreadCommits;
import io.readmark.processor.fanout.FanoutSettings;
import io.readmark.processor.graph.BigVPolicy;
import io.readmark.schemas.EventTimeLimit;
import io.readmark.schemas.Topics;
import io.readmark.store.unread.UnreadKeys;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One pair's follows and unfollows (every mix of up to four, repeated follows and unfollows included, and five
 * alternating ones, at distinct times) and five posts of the author, processed in every order of the follow events,
 * interleaved at random with the posts (which keep their own order, as one author's blog events do), some follow
 * events sent again at the end: the follower ends with exactly the posts that event-time order leaves unread —
 * published while following, and not before a later unfollow. Unfollows older than the pair's last, sent again after
 * all that, write nothing to Redis. A producer that spreads a pair's events over
 * partitions, a replay, or a rebuild meets these orders; a rebuild stopped midway leaves the writes of one of them in
 * Redis for the next.
 */
class FollowOrderIT {

    private static final Topics TOPICS = Topics.defaults();
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final int MAX_MIXED_EVENTS = 4;
    private static final int ALTERNATING_EVENTS = 5;
    private static final int POSTS = 5;

    /** A follow or an unfollow at {@code minute}; the k-th event of a pair follows when k is even. */
    private record FollowEvent(boolean follow, int minute) {
    }

    private static final FanoutSettings FANOUT = new FanoutSettings(BigVPolicy.withThreshold(1_000), 100, 4,
            Duration.ofMillis(50), Duration.ofDays(7), Duration.ofDays(1));

    @Test
    void shouldEndAsEventTimeOrderWouldWhateverOrderAPairsFollowsAreProcessedIn() {
        try (TopologyFixture fixture = fixture(new UnreadKeys("follow-order-" + UUID.randomUUID()))) {
            assertEveryOrder(fixture, null, new Random(20_261_127));
        }
    }

    /**
     * The same after a first run that processed part of another order of the same events and stopped (a rebuild
     * stopped midway, whose writes stay in Redis): the complete run with a graph of its own ends exact.
     */
    @Test
    void shouldEndAsEventTimeOrderWouldAfterARunOfAnotherOrderStoppedMidway() {
        UnreadKeys keys = new UnreadKeys("follow-order-" + UUID.randomUUID());
        try (TopologyFixture stopped = fixture(keys); TopologyFixture complete = fixture(keys)) {
            assertEveryOrder(complete, stopped, new Random(20_261_128));
        }
    }

    private static TopologyFixture fixture(UnreadKeys keys) {
        return new TopologyFixture(keys, (writers, meters) -> UnreadTopology.build(TOPICS, EventTimeLimit.DEFAULT, 1, writers, new ThreadCommits(),
                FANOUT, meters));
    }

    /**
     * Every order of each pair history (a fresh pair each), interleaved with the posts and checked; with
     * {@code stoppedRun}, a random part of another order goes through that topology first.
     */
    private static void assertEveryOrder(TopologyFixture fixture, TopologyFixture stoppedRun, Random random) {
        TopologyInputs inputs = new TopologyInputs(fixture.driver, TOPICS);
        TopologyInputs stoppedInputs = stoppedRun == null ? null : new TopologyInputs(stoppedRun.driver, TOPICS);
        long run = 0;
        for (List<FollowEvent> events : histories()) {
            List<List<FollowEvent>> orders = permutations(events);
            for (List<FollowEvent> order : orders) {
                run++;
                long author = 10_000 + run;
                long follower = 20_000 + run;
                List<Object> stopped = List.of();
                if (stoppedRun != null) {
                    List<Object> other = interleave(orders.get(random.nextInt(orders.size())), random);
                    stopped = other.subList(0, random.nextInt(other.size() + 1));
                    send(stoppedInputs, stopped, run, author, follower);
                    stoppedRun.awaitWrites();
                }
                List<Object> sequence = interleave(order, random);
                if (random.nextInt(3) == 0) sequence.add(order.get(random.nextInt(order.size())));
                send(inputs, sequence, run, author, follower);
                long writes = fixture.changes.writes();
                List<FollowEvent> stale = staleUnfollows(events);
                send(inputs, stale, run, author, follower);
                assertThat(fixture.changes.writes() - writes).as("writes for %s again after %s", stale, sequence).isZero();
                List<String> expected = new ArrayList<>();
                for (int post = 0; post < POSTS; post++) {
                    int minute = 5 + 10 * post;
                    if (unreadInEventTimeOrder(events, minute)) expected.add(Long.toString(blog(run, minute)));
                }
                assertThat(fixture.unreadBlogs(follower, author)).as("processed %s after a stopped run of %s", sequence, stopped)
                        .containsExactlyElementsOf(expected);
            }
        }
        assertThat(run).isEqualTo(2 + 4 * 2 + 8 * 6 + 16 * 24 + 120);
    }

    /**
     * Every mix of follows and unfollows of 1 to {@value #MAX_MIXED_EVENTS} events (a follow repeated before the
     * original is processed loses nothing, nor does an unfollow of a pair that never followed), then
     * {@value #ALTERNATING_EVENTS} alternating ones; the k-th event at minute 10k.
     */
    private static List<List<FollowEvent>> histories() {
        List<List<FollowEvent>> histories = new ArrayList<>();
        for (int count = 1; count <= MAX_MIXED_EVENTS; count++) {
            for (int kinds = 0; kinds < 1 << count; kinds++) {
                List<FollowEvent> events = new ArrayList<>();
                for (int k = 0; k < count; k++) events.add(new FollowEvent((kinds >> k & 1) == 0, 10 * k));
                histories.add(events);
            }
        }
        List<FollowEvent> alternating = new ArrayList<>();
        for (int k = 0; k < ALTERNATING_EVENTS; k++) alternating.add(new FollowEvent(k % 2 == 0, 10 * k));
        histories.add(alternating);
        return histories;
    }

    private static void send(TopologyInputs inputs, List<?> sequence, long run, long author, long follower) {
        for (Object step : sequence) {
            if (step instanceof FollowEvent event) {
                String at = at(event.minute());
                if (event.follow()) {
                    inputs.followed(follower, author, at);
                } else {
                    inputs.unfollowed(follower, author, at);
                }
            } else {
                int minute = (Integer) step;
                inputs.published(blog(run, minute), author, at(minute));
            }
        }
    }

    /**
     * The unfollows older than the pair's last: whatever they could change, the last one changed (a producer's retry,
     * a replay of a history).
     */
    private static List<FollowEvent> staleUnfollows(List<FollowEvent> events) {
        int last = events.stream().filter(event -> !event.follow()).mapToInt(FollowEvent::minute).max().orElse(-1);
        return events.stream().filter(event -> !event.follow() && event.minute() < last).toList();
    }

    /** Followed when the post came, and no unfollow after it took it away. */
    private static boolean unreadInEventTimeOrder(List<FollowEvent> events, int minute) {
        FollowEvent last = null;
        for (FollowEvent event : events) {
            if (event.minute() < minute) last = event;
            if (event.minute() > minute && !event.follow()) return false;
        }
        return last != null && last.follow();
    }

    /** The follow events in the given order, with the posts (minutes 5, 15, ...) in theirs, merged at random. */
    private static List<Object> interleave(List<FollowEvent> order, Random random) {
        List<Object> sequence = new ArrayList<>();
        int event = 0, post = 0;
        while (event < order.size() || post < POSTS) {
            if (post == POSTS || (event < order.size() && random.nextBoolean())) {
                sequence.add(order.get(event++));
            } else {
                sequence.add(5 + 10 * post++);
            }
        }
        return sequence;
    }

    private static List<List<FollowEvent>> permutations(List<FollowEvent> events) {
        if (events.isEmpty()) return List.of(List.of());
        List<List<FollowEvent>> all = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            List<FollowEvent> rest = new ArrayList<>(events);
            FollowEvent first = rest.remove(i);
            for (List<FollowEvent> tail : permutations(rest)) {
                List<FollowEvent> order = new ArrayList<>(List.of(first));
                order.addAll(tail);
                all.add(Collections.unmodifiableList(order));
            }
        }
        return all;
    }

    private static long blog(long run, int minute) {
        return run * 100 + minute;
    }

    private static String at(int minute) {
        return T0.plus(Duration.ofMinutes(minute)).toString();
    }
}
