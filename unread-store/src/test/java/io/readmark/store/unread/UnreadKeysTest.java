package io.readmark.store.unread;

import io.readmark.store.notice.NoticeKeys;

import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UnreadKeysTest {

    @Test
    void shouldNameEveryKeyOfAUserWithItsHashTag() {
        UnreadKeys keys = new UnreadKeys("rm");

        assertThat(keys.unread(101, 7)).isEqualTo("rm:{u:101}:unread:7");
        assertThat(keys.counts(101)).isEqualTo("rm:{u:101}:counts");
        assertThat(keys.marks(101)).isEqualTo("rm:{u:101}:marks");
        assertThat(keys.floors(101)).isEqualTo("rm:{u:101}:floors");
        assertThatThrownBy(() -> new UnreadKeys("a{b")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldGiveTheSlotEveryKeyOfTheUserHashesToWhateverThePrefix() {
        for (String prefix : new String[]{"rm", "another:prefix"}) {
            UnreadKeys keys = new UnreadKeys(prefix);
            for (long user : new long[]{0, 1, 101, 10_894, Long.MAX_VALUE}) {
                assertThat(UnreadKeys.slot(user)).as("user %d under %s", user, prefix)
                        .isEqualTo(SlotHash.getSlot(keys.counts(user)))
                        .isEqualTo(SlotHash.getSlot(keys.unreadBytes(user, 7)))
                        .isEqualTo(SlotHash.getSlot(keys.changes(user)));
            }
        }
        assertThat(UnreadKeys.slot(100)).as("CRC16 of \"u:100\" mod 16384").isEqualTo(15_296);
    }

    @Test
    void shouldFindTheKeysItNamesAgainAndNoOthers() {
        UnreadKeys keys = new UnreadKeys("rm");

        assertThat(keys.countsPattern()).isEqualTo("rm:{u:*}:counts");
        assertThat(keys.unreadPattern()).isEqualTo("rm:{u:*}:unread:*");
        assertThat(new UnreadKeys("a*b?[c]\\d").countsPattern()).as("glob characters of a prefix match only themselves")
                .isEqualTo("a\\*b\\?\\[c\\]\\\\d:{u:*}:counts");
        assertThat(keys.userOfCounts(keys.counts(101))).isEqualTo(101);
        assertThat(keys.parseUnread(keys.unread(101, 7))).isEqualTo(new UnreadKeys.UnreadKey(101, 7));
        assertThat(keys.parseUnread(keys.unread(Long.MAX_VALUE, 1))).isEqualTo(new UnreadKeys.UnreadKey(Long.MAX_VALUE, 1));
        for (String other : new String[]{"rm:{u:x}:counts", "rm:{u:}:counts", "rm:{u:01}:counts", "rm:{u:-1}:counts",
                "rm2:{u:1}:counts", "rm:{u:1}:counts:x", "rm:{u:99999999999999999999}:counts", "rm:{u:1}:unread:7"}) {
            assertThat(keys.userOfCounts(other)).as(other).isEqualTo(-1);
        }
        for (String other : new String[]{"rm:{u:1}:unread:", "rm:{u:1}:unread:07", "rm:{u:1}:unread:7x", "rm:{u:a}:unread:7",
                "rm:{u:1}:counts", "xx:{u:1}:unread:7"}) {
            assertThat(keys.parseUnread(other)).as(other).isNull();
        }
        assertThat(UnreadKeys.id("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThat(UnreadKeys.id("9223372036854775808")).isEqualTo(-1);
        assertThat(UnreadKeys.id("0")).isEqualTo(-1);
    }

    @Test
    void shouldEncodeTheSameNamesAsBytesForTheWriter() {
        for (String prefix : new String[]{"rm", "tenant-ä", "x"}) {
            UnreadKeys keys = new UnreadKeys(prefix);
            for (long user : new long[]{0, 1, 9, 10, 101, 999_999_999L, Long.MAX_VALUE, -5}) {
                for (long author : new long[]{0, 7, 10, 1_000_000_007L, Long.MAX_VALUE, -3}) {
                    assertThat(utf8(keys.unreadBytes(user, author))).isEqualTo(keys.unread(user, author));
                }
                assertThat(utf8(keys.countsBytes(user))).isEqualTo(keys.counts(user));
                assertThat(utf8(keys.marksBytes(user))).isEqualTo(keys.marks(user));
                assertThat(utf8(keys.floorsBytes(user))).isEqualTo(keys.floors(user));
                assertThat(utf8(keys.liveBytes(user))).isEqualTo(keys.live(user));
                assertThat(utf8(keys.changesBytes(user))).isEqualTo(keys.changes(user));
            }
        }
        for (long value : new long[]{0, 5, 10, 99, 100, 1_767_225_600_000L, Long.MAX_VALUE, -1, Long.MIN_VALUE}) {
            assertThat(utf8(UnreadKeys.decimal(value))).isEqualTo(Long.toString(value));
        }
    }

    @Test
    void shouldReadTheUserOutOfAKeysHashTagAndNoUserOutOfOtherKeys() {
        UnreadKeys keys = new UnreadKeys("rm");
        NoticeKeys notices = new NoticeKeys("rm");
        for (long user : new long[]{1, 101, Long.MAX_VALUE}) {
            for (byte[] key : new byte[][]{keys.zBytes(user), keys.hBytes(user), keys.floorsBytes(user), keys.unreadBytes(user, 7),
                    keys.liveBytes(user), keys.changesBytes(user), bytes(notices.inbox(user)), bytes(notices.audiences(user))}) {
                assertThat(UnreadKeys.userOfTag(key)).as(new String(key, StandardCharsets.UTF_8)).isEqualTo(user);
            }
        }
        for (String other : new String[]{notices.audienceNotices("everyone"), notices.audienceChanges("u:1"), "rm:{u:}:z",
                "rm:{u:01}:z", "rm:{u:0}:z", "rm:{u:-1}:z", "rm:{u:1x}:z", "rm:{u:9223372036854775808}:z",
                "rm:{u:99999999999999999999}:z", "rm:{u:1:z", "rm:u:1}:z", "rm:{U:1}:z", "rm:{x}:{u:1}:z", "rm:{u", "{", ""}) {
            assertThat(UnreadKeys.userOfTag(bytes(other))).as(other).isEqualTo(-1);
        }
    }

    private static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
