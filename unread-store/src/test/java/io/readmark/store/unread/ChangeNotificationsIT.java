package io.readmark.store.unread;

import io.readmark.store.RedisFixture;
import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.reconcile.Reconciler;
import io.readmark.store.redis.RedisVersion;

import io.lettuce.core.pubsub.RedisPubSubListener;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each write script publishes on the user's changes channel exactly when it changed what the user sees, and only while
 * the user's live key exists; a replay publishes nothing. Each message carries the user's state version, one more per
 * change, and a replay does not bump it. Messages on one channel arrive in order, so a marker
 * published after the scripts closes each batch: no waiting for messages that should not come.
 */
class ChangeNotificationsIT {

    private static final long T0 = 1_767_225_600_000L;
    private static final long ALICE = 7;
    private static final long BOB = 9;
    private static final String MARKER = "marker";

    @AutoClose
    private static final RedisFixture redis = new RedisFixture();
    private final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    private UnreadWriter writer;
    private StatefulRedisPubSubConnection<String, String> subscriber;
    private long user;
    private boolean sharded;

    @BeforeEach
    void subscribe() {
        user = 1 + System.nanoTime() % 1_000_000_000L;
        writer = redis.writer(new UnreadLimits(3, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 20));
        String channel = redis.keys.changes(user);
        subscriber = redis.redis.connectPubSub(redis.redis.pubSubNode(channel));
        subscriber.addListener(new RedisPubSubListener<>() {
            @Override public void message(String channel, String message) { received.add(message); }
            @Override public void smessage(String channel, String message) { received.add(message); }
            @Override public void message(String pattern, String channel, String message) { }
            @Override public void subscribed(String channel, long count) { }
            @Override public void psubscribed(String pattern, long count) { }
            @Override public void unsubscribed(String channel, long count) { }
            @Override public void punsubscribed(String pattern, long count) { }
        });
        sharded = RedisVersion.hasShardedPubSub(redis.sync.info("server"));
        if (sharded) {
            subscriber.sync().ssubscribe(channel);
        } else {
            subscriber.sync().subscribe(channel);
        }
        redis.sync.set(redis.keys.live(user), "1");
    }

    @AfterEach
    void close() {
        subscriber.close();
        writer.close();
    }

    /** Applies the writes, then returns what they published. */
    private List<String> published() throws InterruptedException {
        writer.awaitAcknowledged();
        String channel = redis.keys.changes(user);
        if (sharded) {
            redis.sync.spublish(channel, MARKER);
        } else {
            redis.sync.publish(channel, MARKER);
        }
        List<String> messages = new ArrayList<>();
        long last = 0;
        while (true) {
            String message = received.poll(5, TimeUnit.SECONDS);
            assertThat(message).as("the marker arrives after the scripts' messages").isNotNull();
            if (message.equals(MARKER)) break;
            String[] versioned = message.split(" ", 2);
            if (!versioned[0].chars().allMatch(Character::isDigit)) { // an audience's: a broadcast is no user's change
                messages.add(message);
                continue;
            }
            long version = Long.parseLong(versioned[0]);
            assertThat(version).as("the version of %s", message).isPositive();
            if (last != 0) assertThat(version).as("each change one version more: %s", message).isEqualTo(last + 1);
            last = version;
            messages.add(versioned[1]);
        }
        if (last != 0) {
            assertThat(redis.sync.hget(redis.keys.h(user), "v")).as("no change left unpublished, no replay counted")
                    .isEqualTo(Long.toString(last));
        }
        return messages;
    }

    @Test
    void shouldPublishATargetedNoticeAndItsReadsOnlyWhenTheyChangedSomething() throws InterruptedException {
        writer.noticeSent(user, 5, T0);
        writer.noticeSent(user, 5, T0);
        writer.noticeRead(user, 5, T0 + 1_000);
        writer.noticeRead(user, 5, T0 + 1_000);
        writer.noticeRead(user, 7, T0 + 1_000); // before its sending: the send then publishes nothing
        writer.noticeSent(user, 7, T0);
        writer.noticeSent(user, 6, T0 + 2_000);
        writer.noticesAllRead(user, T0 + 3_000);
        writer.noticesAllRead(user, T0 + 3_000);
        assertThat(published()).containsExactly("notice 5", "notice-read 5", "notice-read 7", "notice 6", "notice-read");
    }

    /**
     * Broadcast notices (everyone's and the audiences') are counted when read, from keys in other slots: a floor that
     * moved may have made some read, so the streams hear of it; a replay, or a floor under the other one, says nothing.
     */
    @Test
    void shouldPublishEveryMoveOfTheNoticeFloor() throws InterruptedException {
        writer.noticesAllRead(user, T0 + 2_000);
        writer.noticesAllRead(user, T0 + 2_000);
        writer.noticesAllRead(user, T0 + 1_000);
        writer.allRead(user, T0 + 3_000);
        writer.allRead(user, T0 + 3_000);
        writer.noticesAllRead(user, T0 + 3_000); // under the all-read's floor: no broadcast becomes read
        assertThat(published()).containsExactly("notice-read", "notice-read");
    }

    @Test
    void shouldAnnounceABroadcastOnItsAudienceChannelWhenTheLiveSetChanged() throws InterruptedException {
        String channel = new NoticeKeys(redis.keys.prefix()).audienceChanges("team-" + user);
        if (sharded) {
            subscriber.sync().ssubscribe(channel);
        } else {
            subscriber.sync().subscribe(channel);
        }
        writer.noticePublished("team-" + user, 11, T0, 0);
        writer.noticePublished("team-" + user, 11, T0, 0);
        writer.noticeWithdrawn("team-" + user, 11, T0 + 1_000);
        writer.noticeWithdrawn("team-" + user, 11, T0 + 1_000);
        writer.noticePublished("team-" + user, 11, T0, 0);
        assertThat(published()).containsExactly("published 11", "withdrawn 11");
    }

    @Test
    void shouldPublishEachDeliveryOnceAndNothingForItsReplay() throws InterruptedException {
        writer.deliver(user, ALICE, 1001, T0);
        writer.deliver(user, BOB, 2001, T0 + 1_000);
        writer.deliver(user, ALICE, 1001, T0);
        assertThat(published()).containsExactly("delivered 7 1001", "delivered 9 2001");
    }

    @Test
    void shouldPublishAGroupedDeliveryToTheLiveFollowersItChangedOnly() throws InterruptedException {
        long hadIt = user + 1, quiet = user + 2; // neither has a stream open
        redis.sync.set(redis.keys.live(hadIt), "1");
        writer.deliver(hadIt, ALICE, 1001, T0);
        writer.deliverToEach(List.of(hadIt, user, quiet), ALICE, 1001, T0);
        writer.deliverToEach(List.of(hadIt, user, quiet), ALICE, 1001, T0);
        writer.deliver(user, ALICE, 1002, T0 + 1_000);
        writer.deliver(user, ALICE, 1003, T0 + 2_000);
        writer.deliver(user, ALICE, 1004, T0 + 3_000);
        writer.deliverToEach(List.of(quiet, user), ALICE, 1000, T0 - 1); // older than what the cap (3) dropped: not for the user
        assertThat(published()).containsExactly("delivered 7 1001", "delivered 7 1002", "delivered 7 1003", "delivered 7 1004");
        assertThat(redis.reader().page(quiet, ALICE, 10, null).items()).extracting(UnreadItem::blogId).containsExactly(1001L, 1000L);
    }

    @Test
    void shouldPublishADeliveryThatTheCapKeptTheCountOf() throws InterruptedException {
        writer.deliver(user, ALICE, 1, T0);
        writer.deliver(user, ALICE, 2, T0 + 1_000);
        writer.deliver(user, ALICE, 3, T0 + 2_000);
        writer.deliver(user, ALICE, 4, T0 + 3_000);
        assertThat(published()).containsExactly("delivered 7 1", "delivered 7 2", "delivered 7 3", "delivered 7 4");
    }

    @Test
    void shouldPublishNothingForAnOlderBlogTheCapTrimsOnArrival() throws InterruptedException {
        writer.deliver(user, ALICE, 1, T0 + 1_000);
        writer.deliver(user, ALICE, 2, T0 + 2_000);
        writer.deliver(user, ALICE, 3, T0 + 3_000);
        writer.deliver(user, ALICE, 9, T0);
        assertThat(published()).containsExactly("delivered 7 1", "delivered 7 2", "delivered 7 3");
    }

    @Test
    void shouldPublishNothingForDeliveriesAMarkOrFloorKeepsOut() throws InterruptedException {
        writer.remove(user, ALICE, 1001, T0 + 5_000);
        writer.readAll(user, BOB, T0 + 10_000);
        writer.deliver(user, ALICE, 1001, T0);
        writer.deliver(user, BOB, 2001, T0 + 1_000);
        assertThat(published()).isEmpty();
    }

    @Test
    void shouldPublishAReadOrADeleteOnlyWhenTheBlogWasUnread() throws InterruptedException {
        writer.deliver(user, ALICE, 1001, T0);
        writer.deliver(user, ALICE, 1002, T0 + 1_000);
        published();

        writer.remove(user, ALICE, 1001, T0 + 5_000);
        writer.remove(user, ALICE, 1001, T0 + 5_000);
        writer.delete(user, ALICE, 1002, T0 + 6_000);
        writer.delete(user, ALICE, 1002, T0 + 6_000);
        writer.remove(user, ALICE, 9999, T0 + 7_000);
        assertThat(published()).containsExactly("read 7 1001", "removed 7 1002");
    }

    @Test
    void shouldPublishAReadAllOrAnUnfollowOnlyWhenItDroppedSomething() throws InterruptedException {
        writer.deliver(user, ALICE, 1, T0);
        writer.deliver(user, BOB, 2, T0);
        published();

        writer.readAll(user, ALICE, T0 + 10_000);
        writer.readAll(user, ALICE, T0 + 10_000);
        writer.unfollow(user, BOB, T0 + 10_000);
        writer.unfollow(user, BOB, T0 + 10_000);
        writer.unfollow(user, ALICE, T0 + 11_000);
        writer.follow(user, BOB, T0 + 20_000);
        assertThat(published()).containsExactly("read-all 7", "unfollowed 9");
    }

    @Test
    void shouldPublishAnAllReadOncePerAuthorItClearedAndNothingForItsReplay() throws InterruptedException {
        writer.deliver(user, ALICE, 1, T0);
        writer.deliver(user, BOB, 2, T0 + 1_000);
        writer.deliver(user, BOB, 3, T0 + 20_000);
        published();

        writer.allRead(user, T0 + 10_000);
        writer.allRead(user, T0 + 10_000);
        assertThat(published()).containsExactlyInAnyOrder("notice-read", "all-read 7", "all-read 9");
        assertThat(redis.reader().counts(user).total()).isEqualTo(1);
    }

    @Test
    void shouldPublishASeenMarkOnlyWhenTheUnseenCountMoved() throws InterruptedException {
        writer.deliver(user, ALICE, 1, T0);
        writer.deliver(user, ALICE, 2, T0 + 20_000);
        published();

        writer.inboxSeen(user, T0 + 5_000);
        writer.inboxSeen(user, T0 + 5_000);
        writer.inboxSeen(user, T0 + 6_000);
        writer.inboxSeen(user, T0 + 30_000);
        assertThat(published()).as("the first and the last moved what is unseen; a replay and a mark over nothing new did not")
                .containsExactly("seen", "seen");
        assertThat(redis.reader().counts(user).unseen()).isZero();
    }

    @Test
    void shouldPublishNothingWhileNoStreamIsLive() throws InterruptedException {
        long micros = System.currentTimeMillis() * 1000;
        redis.sync.del(redis.keys.live(user));
        writer.deliver(user, ALICE, 1001, T0);
        writer.remove(user, ALICE, 1001, T0 + 1_000);
        assertThat(published()).isEmpty();
        assertThat(redis.reader().counts(user).total()).isZero();
        assertThat(redis.reader().counts(user).version()).as("bumped all the same, from the first change's time in microseconds")
                .isBetween(micros + 2, (System.currentTimeMillis() + 1) * 1000 + 2);
    }

    @Test
    void shouldPublishARepairThatChangedTheCounts() throws InterruptedException {
        writer.deliver(user, ALICE, 1, T0);
        published();
        redis.sync.hset(redis.keys.h(user), "total", "5");

        Reconciler reconciler = new Reconciler(redis.redis, redis.keys, UnreadLimits.DEFAULTS.maxUnreadPerAuthor(),
                UnreadLimits.DEFAULTS.maxUnreadPerUser());
        reconciler.run(true, (keys, users, drifted, pass) -> { });
        assertThat(published()).containsExactly("repaired");
        reconciler.run(true, (keys, users, drifted, pass) -> { });
        assertThat(published()).isEmpty();
    }
}
