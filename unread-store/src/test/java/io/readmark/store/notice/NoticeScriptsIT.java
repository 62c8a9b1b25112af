package io.readmark.store.notice;

import io.readmark.store.RedisFixture;
import io.readmark.store.unread.UnreadLimits;
import io.readmark.store.unread.UnreadWriter;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The notice scripts against a real Redis: broadcasts stored once per audience, memberships resolved by time, the
 * targeted inbox with counts.notices kept exact (checked by {@link RedisFixture.Scoped#assertInvariants} after each
 * step), in any order and under replays.
 */
class NoticeScriptsIT {

    private static final long T0 = 1_767_225_600_000L;

    @AutoClose
    private static final RedisFixture redis = new RedisFixture();
    private final NoticeKeys keys = new NoticeKeys(redis.keys.prefix());
    private UnreadWriter writer;

    @BeforeEach
    void openWriter() {
        writer = redis.writer(new UnreadLimits(3, UnreadLimits.DEFAULTS.maxUnreadPerUser(), 20, new NoticeLimits(3, 3, 4, 2)));
    }

    @AfterEach
    void closeWriter() {
        writer.close();
    }

    private static long unique() {
        return 101 + System.nanoTime() % 1_000_000_000L;
    }

    private long notices(long user) {
        writer.awaitAcknowledged();
        redis.assertInvariants(user);
        String field = redis.sync.hget(redis.keys.h(user), "notices");
        return field == null ? 0 : Long.parseLong(field);
    }

    private List<String> live(String audience) {
        writer.awaitAcknowledged();
        return redis.sync.zrange(keys.audienceNotices(audience), 0, -1);
    }

    @Test
    void shouldStoreABroadcastOnceAndKeepTheNewestOfAnAudience() {
        String audience = "staff-" + unique();
        writer.noticePublished(audience, 1, T0, 0);
        writer.noticePublished(audience, 1, T0, 0); // replay
        writer.noticePublished(audience, 2, T0 + 10, 0);
        writer.noticePublished(audience, 3, T0 + 20, 0);
        writer.noticePublished(audience, 4, T0 + 30, 0);
        assertThat(live(audience)).containsExactly("2", "3", "4");

        // too old for the cap: never live
        writer.noticePublished(audience, 5, T0 - 10, 0);
        assertThat(live(audience)).containsExactly("2", "3", "4");
    }

    @Test
    void shouldKeepAWithdrawnNoticeOutWhateverTheOrder() {
        String audience = "staff-" + unique();
        writer.noticeWithdrawn(audience, 1, T0 + 5);
        writer.noticePublished(audience, 1, T0, 0);
        writer.noticePublished(audience, 2, T0, 0);
        assertThat(live(audience)).containsExactly("2");

        writer.noticeWithdrawn(audience, 2, T0 + 5);
        writer.noticeWithdrawn(audience, 2, T0 + 5);
        assertThat(live(audience)).isEmpty();
        assertThat(redis.sync.zrange(keys.audienceWithdrawn(audience), 0, -1)).containsExactly("1", "2");
    }

    @Test
    void shouldDropExpiredNoticesOnTheAudiencesNextWrite() {
        String audience = "staff-" + unique();
        long now = System.currentTimeMillis();
        writer.noticePublished(audience, 1, now - 1000, now + 60_000);
        writer.noticePublished(audience, 2, now - 1000, now - 1); // already expired
        assertThat(live(audience)).containsExactly("1");
        assertThat(redis.sync.hgetall(keys.audienceExpiry(audience))).containsOnlyKeys("1");

        redis.sync.hset(keys.audienceExpiry(audience), "1", Long.toString(now - 1)); // as if its time had come
        writer.noticePublished(audience, 3, now, 0);
        assertThat(live(audience)).containsExactly("3");
        assertThat(redis.sync.hgetall(keys.audienceExpiry(audience))).isEmpty();
    }

    @Test
    void shouldResolveJoinsAndLeavesByTimeWithALeaveWinningATie() {
        long user = unique();
        writer.audienceJoined(user, "staff", T0 + 10);
        writer.audienceLeft(user, "staff", T0);      // older: ignored
        writer.audienceLeft(user, "eng", T0 + 10);
        writer.audienceJoined(user, "eng", T0 + 10); // same ms as the leave: the leave wins
        writer.audienceJoined(user, "ops", T0);
        writer.audienceLeft(user, "ops", T0 + 10);
        writer.audienceJoined(user, "ops", T0 + 20);
        writer.awaitAcknowledged();
        assertThat(redis.sync.hgetall(keys.audiences(user)))
                .containsExactlyInAnyOrderEntriesOf(java.util.Map.of("staff", "J" + (T0 + 10), "eng", "L" + (T0 + 10), "ops", "J" + (T0 + 20)));
    }

    @Test
    void shouldCountTargetedNoticesUntilReadAndKeepAnEarlyReadRead() {
        long user = unique();
        writer.noticeSent(user, 1, T0);
        writer.noticeSent(user, 1, T0); // replay
        writer.noticeSent(user, 2, T0 + 10);
        assertThat(notices(user)).isEqualTo(2);

        writer.noticeRead(user, 1, T0 + 20);
        writer.noticeRead(user, 1, T0 + 20);
        assertThat(notices(user)).isEqualTo(1);
        assertThat(redis.sync.zrange(keys.inbox(user), 0, -1)).as("read ones stay in the inbox").containsExactly("1", "2");

        // a read before the notice arrives keeps it read
        writer.noticeRead(user, 3, T0 + 20);
        writer.noticeSent(user, 3, T0 + 15);
        assertThat(notices(user)).isEqualTo(1);
    }

    @Test
    void shouldKeepTheNewestInboxEntriesWithTheirCount() {
        long user = unique();
        for (long id = 1; id <= 5; id++) writer.noticeSent(user, id, T0 + id);
        assertThat(notices(user)).isEqualTo(3);
        assertThat(redis.sync.zrange(keys.inbox(user), 0, -1)).containsExactly("3", "4", "5");

        writer.noticeRead(user, 4, T0 + 100);
        writer.noticeSent(user, 6, T0 + 6); // pushes out 3 (unread)
        writer.noticeSent(user, 7, T0 + 7); // pushes out 4 (read)
        assertThat(notices(user)).isEqualTo(3);
        writer.noticeSent(user, 2, T0 + 2); // a replay of an old send is trimmed again
        assertThat(notices(user)).isEqualTo(3);
        assertThat(redis.sync.zrange(keys.inbox(user), 0, -1)).containsExactly("5", "6", "7");
    }

    @Test
    void shouldCountAnInboxEntryAgainWhenItsReadMarkIsTrimmed() {
        long user = unique();
        writer.noticeSent(user, 1, T0);
        writer.noticeRead(user, 1, T0 + 1);
        assertThat(notices(user)).isZero();
        for (long id = 100; id < 104; id++) writer.noticeRead(user, id, T0 + id); // four newer marks: 1's goes
        assertThat(notices(user)).isEqualTo(1);
    }

    @Test
    void shouldReadEveryNoticeUpToTheFloorAndKeepLateOlderSendsRead() {
        long user = unique();
        writer.noticeSent(user, 1, T0);
        writer.noticeSent(user, 2, T0 + 10);
        writer.noticeSent(user, 3, T0 + 20);
        writer.noticesAllRead(user, T0 + 10);
        assertThat(notices(user)).isEqualTo(1);
        writer.noticesAllRead(user, T0 + 10); // replay
        writer.noticesAllRead(user, T0);      // older: the floor stays
        assertThat(notices(user)).isEqualTo(1);

        writer.noticeSent(user, 4, T0 + 5); // late, older than the floor
        assertThat(notices(user)).isEqualTo(1);
        assertThat(redis.sync.hget(redis.keys.floors(user), "notices")).isEqualTo(Long.toString(T0 + 10));
        assertThat(redis.sync.hget(new NoticeKeys(redis.keys.prefix()).audiences(user), NoticeKeys.NOTICE_FLOOR))
                .as("the copy a counts read takes").isEqualTo(Long.toString(T0 + 10));
    }

    @Test
    void shouldBringNoticesDownWithAnAllRead() {
        long user = unique();
        writer.deliver(user, 7, 1, T0);
        writer.noticeSent(user, 1, T0 + 5);
        writer.noticeSent(user, 2, T0 + 30);
        writer.allRead(user, T0 + 20);
        assertThat(notices(user)).isEqualTo(1);
        assertThat(redis.reader().counts(user).total()).as("blog unread").isZero();
        writer.noticeSent(user, 3, T0 + 10); // late, covered by floors.all
        assertThat(notices(user)).isEqualTo(1);
        String audiences = new NoticeKeys(redis.keys.prefix()).audiences(user);
        assertThat(redis.sync.hget(audiences, NoticeKeys.NOTICE_FLOOR)).isEqualTo(Long.toString(T0 + 20));
        writer.noticesAllRead(user, T0 + 15); // below floors.all: the copy keeps the larger floor
        assertThat(redis.sync.hget(audiences, NoticeKeys.NOTICE_FLOOR)).isEqualTo(Long.toString(T0 + 20));
    }
}
