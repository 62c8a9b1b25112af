package io.readmark.store.unread;

import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.notice.NoticeLimits;

import java.nio.charset.StandardCharsets;

/**
 * The calls of the notice scripts: each script's KEYS layout is declared once here, in the order its header lists
 * them, with {@link NoticeKeys}' names and the user's {@link UnreadKeys} they share.
 */
final class NoticeScriptCalls {

    private static final byte[] JOINED = ascii("J");
    private static final byte[] LEFT = ascii("L");
    private static final byte[] NOTICES = ascii("notices");
    private static final byte[] ALL = ascii("all");

    private final UnreadKeys keys;
    private final NoticeKeys noticeKeys;
    private final byte[] maxNoticesPerAudience;
    private final byte[] maxTargetedNotices;
    private final byte[] maxNoticeReads;
    private final byte[] maxWithdrawn;

    NoticeScriptCalls(UnreadKeys keys, NoticeLimits limits) {
        this.keys = keys;
        this.noticeKeys = new NoticeKeys(keys.prefix());
        this.maxNoticesPerAudience = UnreadKeys.decimal(limits.maxNoticesPerAudience());
        this.maxTargetedNotices = UnreadKeys.decimal(limits.maxTargetedNotices());
        this.maxNoticeReads = UnreadKeys.decimal(limits.maxNoticeReads());
        this.maxWithdrawn = UnreadKeys.decimal(limits.maxWithdrawn());
    }

    ScriptCall noticePublished(String audience, long noticeId, long publishedAtMillis, long expiresAtMillis) {
        return new ScriptCall(UnreadScript.NOTICE_PUBLISH, audienceKeys(audience),
                new byte[][]{UnreadKeys.decimal(noticeId), UnreadKeys.decimal(publishedAtMillis),
                        expiresAtMillis > 0 ? UnreadKeys.decimal(expiresAtMillis) : new byte[0], maxNoticesPerAudience, now()});
    }

    ScriptCall noticeWithdrawn(String audience, long noticeId, long withdrawnAtMillis) {
        return new ScriptCall(UnreadScript.NOTICE_WITHDRAW, audienceKeys(audience),
                new byte[][]{UnreadKeys.decimal(noticeId), UnreadKeys.decimal(withdrawnAtMillis), maxWithdrawn, now()});
    }

    /** The four keys of notice_publish.lua and notice_withdraw.lua. */
    private byte[][] audienceKeys(String audience) {
        return new byte[][]{utf8(noticeKeys.audienceNotices(audience)), utf8(noticeKeys.audienceExpiry(audience)),
                utf8(noticeKeys.audienceWithdrawn(audience)), utf8(noticeKeys.audienceChanges(audience))};
    }

    ScriptCall audienceJoined(long userId, String audience, long atMillis) {
        return membership(userId, audience, JOINED, atMillis);
    }

    ScriptCall audienceLeft(long userId, String audience, long atMillis) {
        return membership(userId, audience, LEFT, atMillis);
    }

    private ScriptCall membership(long userId, String audience, byte[] kind, long atMillis) {
        return new ScriptCall(UnreadScript.AUDIENCE_MEMBER,
                new byte[][]{utf8(noticeKeys.audiences(userId)), keys.liveBytes(userId), keys.changesBytes(userId),
                        keys.hBytes(userId)},
                new byte[][]{utf8(audience), kind, UnreadKeys.decimal(atMillis)});
    }

    ScriptCall noticeSent(long userId, long noticeId, long sentAtMillis) {
        return new ScriptCall(UnreadScript.NOTICE_SEND,
                new byte[][]{utf8(noticeKeys.inbox(userId)), keys.hBytes(userId), utf8(noticeKeys.noticeReads(userId)),
                        keys.floorsBytes(userId), keys.liveBytes(userId), keys.changesBytes(userId)},
                new byte[][]{UnreadKeys.decimal(noticeId), UnreadKeys.decimal(sentAtMillis), maxTargetedNotices});
    }

    ScriptCall noticeRead(long userId, long noticeId, long readAtMillis) {
        return new ScriptCall(UnreadScript.NOTICE_READ,
                new byte[][]{utf8(noticeKeys.noticeReads(userId)), utf8(noticeKeys.inbox(userId)), keys.hBytes(userId),
                        keys.floorsBytes(userId), keys.liveBytes(userId), keys.changesBytes(userId), utf8(noticeKeys.audiences(userId))},
                new byte[][]{UnreadKeys.decimal(noticeId), UnreadKeys.decimal(readAtMillis), maxNoticeReads});
    }

    ScriptCall noticesAllRead(long userId, long readAtMillis) {
        return noticeFloor(userId, readAtMillis, NOTICES);
    }

    /** The notices' step of an all-read: the floors field {@code all}, which its first step all_read.lua raises too. */
    ScriptCall allRead(long userId, long readAtMillis) {
        return noticeFloor(userId, readAtMillis, ALL);
    }

    /** Raises the floors field ({@code notices} or {@code all}) and counts the inbox's unread again. */
    private ScriptCall noticeFloor(long userId, long readAtMillis, byte[] field) {
        return new ScriptCall(UnreadScript.NOTICES_ALL_READ,
                new byte[][]{keys.floorsBytes(userId), utf8(noticeKeys.inbox(userId)), utf8(noticeKeys.noticeReads(userId)),
                        keys.hBytes(userId), keys.liveBytes(userId), keys.changesBytes(userId), utf8(noticeKeys.audiences(userId))},
                new byte[][]{UnreadKeys.decimal(readAtMillis), field});
    }

    /** The clock an expiry is compared with: notices that expired are dropped by the audience's next write. */
    private static byte[] now() {
        return UnreadKeys.decimal(System.currentTimeMillis());
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
