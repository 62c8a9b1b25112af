package io.readmark.store.unread;

import io.readmark.store.notice.NoticeKeys;
import io.readmark.store.redis.RedisConnections;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The calls of the scripts that change a user's unread posts: each script's KEYS layout is declared once here, in the
 * order its header lists them, with {@link UnreadKeys}' names. Keys and arguments are bytes encoded here (see
 * {@link RedisConnections.BinaryConnection}): a fan-out sends five keys per follower, so per-argument costs on the
 * I/O thread bound the pipeline.
 */
final class UnreadScriptCalls {

    /** Keys per user of the delivery and the removal scripts (the same five, in the same order), which take several users' keys in turn. */
    static final int USER_KEYS = 5;
    private static final byte[] READ = "read".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] REMOVED = "removed".getBytes(StandardCharsets.US_ASCII);

    private final UnreadKeys keys;
    private final NoticeKeys noticeKeys;
    private final byte[] maxUnreadPerAuthor;
    private final byte[] maxUnreadPerUser;
    private final byte[] maxMarksPerUser;
    private final boolean cluster;

    /** @param cluster whether Redis is a cluster, where one script's keys must all be in one slot */
    UnreadScriptCalls(UnreadKeys keys, UnreadLimits limits, boolean cluster) {
        this.keys = keys;
        this.noticeKeys = new NoticeKeys(keys.prefix());
        this.maxUnreadPerAuthor = UnreadKeys.decimal(limits.maxUnreadPerAuthor());
        this.maxUnreadPerUser = UnreadKeys.decimal(limits.maxUnreadPerUser());
        this.maxMarksPerUser = UnreadKeys.decimal(limits.maxMarksPerUser());
        this.cluster = cluster;
    }

    /**
     * The post's delivery to each user, in scripts of up to {@value UnreadChanges#MAX_USERS_PER_CALL} users: one
     * script per follower costs Redis a call, a script lookup and the arguments' parsing each. On Redis Cluster a
     * script holds only users of one slot, so users of different slots go out one script each.
     */
    void deliverToEach(List<Long> userIds, long authorId, long blogId, long publishedAtMillis, Consumer<ScriptCall> into) {
        long second = EntryRecord.second(publishedAtMillis);
        forEach(UnreadScript.DELIVER_ONE, UnreadScript.DELIVER_MANY, userIds,
                new byte[][]{UnreadKeys.decimal(authorId), UnreadKeys.decimal(blogId), UnreadKeys.decimal(second),
                        EntryRecord.of(second, blogId), maxUnreadPerAuthor, maxUnreadPerUser}, into);
    }

    /** The post was read by the user, or deleted for them alone. */
    void remove(long userId, long authorId, long blogId, long atMillis, Consumer<ScriptCall> into) {
        forEach(UnreadScript.REMOVE_ONE, UnreadScript.REMOVE_MANY, List.of(userId),
                removeArgs(authorId, blogId, atMillis, READ), into);
    }

    /** The post's removal for each user, as it was deleted, grouped into scripts as {@link #deliverToEach} groups deliveries. */
    void deleteForEach(List<Long> userIds, long authorId, long blogId, long atMillis, Consumer<ScriptCall> into) {
        forEach(UnreadScript.REMOVE_ONE, UnreadScript.REMOVE_MANY, userIds,
                removeArgs(authorId, blogId, atMillis, REMOVED), into);
    }

    private byte[][] removeArgs(long authorId, long blogId, long atMillis, byte[] kind) {
        return new byte[][]{UnreadKeys.decimal(authorId), UnreadKeys.decimal(blogId), EntryRecord.idBytes(blogId),
                UnreadKeys.decimal(EntryRecord.second(atMillis) + 1), maxMarksPerUser, kind};
    }

    /**
     * The same change for each user: {@code one} for a single user, {@code many} for up to
     * {@value UnreadChanges#MAX_USERS_PER_CALL} users of one script group at a time, all with the same {@code args}.
     */
    private void forEach(UnreadScript one, UnreadScript many, List<Long> userIds, byte[][] args,
                         Consumer<ScriptCall> into) {
        for (List<Long> group : sameScriptGroups(userIds)) {
            for (int from = 0; from < group.size(); from += UnreadChanges.MAX_USERS_PER_CALL) {
                List<Long> users = group.subList(from, Math.min(group.size(), from + UnreadChanges.MAX_USERS_PER_CALL));
                byte[][] scriptKeys = new byte[users.size() * USER_KEYS][];
                for (int i = 0; i < users.size(); i++) putUserKeys(scriptKeys, i * USER_KEYS, users.get(i));
                into.accept(new ScriptCall(users.size() == 1 ? one : many, scriptKeys, args));
            }
        }
    }

    /** The users in groups that one script may touch together: all of them, or on Redis Cluster those of one slot. */
    private Collection<List<Long>> sameScriptGroups(List<Long> userIds) {
        if (!cluster || userIds.size() == 1) return List.of(userIds);
        Map<Integer, List<Long>> bySlot = new LinkedHashMap<>();
        for (long user : userIds) bySlot.computeIfAbsent(UnreadKeys.slot(user), slot -> new ArrayList<>()).add(user);
        return bySlot.values();
    }

    /** The five keys of the user that deliver.lua and remove.lua take, from {@code at} on. */
    private void putUserKeys(byte[][] into, int at, long userId) {
        into[at] = keys.zBytes(userId);
        into[at + 1] = keys.hBytes(userId);
        into[at + 2] = keys.floorsBytes(userId);
        into[at + 3] = keys.liveBytes(userId);
        into[at + 4] = keys.changesBytes(userId);
    }

    ScriptCall readAll(long userId, long authorId, long readAtMillis) {
        return new ScriptCall(UnreadScript.READ_ALL, authorKeys(userId),
                new byte[][]{UnreadKeys.decimal(authorId), UnreadKeys.decimal(readAtMillis)});
    }

    /** An all-read: one script, as the user's entries are bounded by the per-user cap. */
    ScriptCall allRead(long userId, long readAtMillis) {
        return new ScriptCall(UnreadScript.ALL_READ, new byte[][]{keys.floorsBytes(userId), keys.hBytes(userId),
                noticeKeys.audiences(userId).getBytes(StandardCharsets.UTF_8), keys.liveBytes(userId), keys.changesBytes(userId),
                keys.zBytes(userId)}, new byte[][]{UnreadKeys.decimal(readAtMillis)});
    }

    ScriptCall inboxSeen(long userId, long seenAtMillis) {
        return new ScriptCall(UnreadScript.INBOX_SEEN, new byte[][]{keys.floorsBytes(userId), keys.hBytes(userId),
                keys.zBytes(userId), keys.liveBytes(userId), keys.changesBytes(userId)},
                new byte[][]{UnreadKeys.decimal(seenAtMillis)});
    }

    ScriptCall unfollow(long userId, long authorId, long atMillis) {
        return new ScriptCall(UnreadScript.UNFOLLOW, authorKeys(userId),
                new byte[][]{UnreadKeys.decimal(authorId), UnreadKeys.decimal(atMillis)});
    }

    ScriptCall follow(long userId, long authorId, long atMillis, long unfollowedBeforeMillis) {
        return new ScriptCall(UnreadScript.FOLLOW, new byte[][]{keys.floorsBytes(userId)},
                new byte[][]{UnreadKeys.decimal(authorId), UnreadKeys.decimal(atMillis),
                        unfollowedBeforeMillis == UnreadChanges.NO_UNFOLLOW ? new byte[0] : UnreadKeys.decimal(unfollowedBeforeMillis)});
    }

    ScriptCall unfollowBefore(long userId, long authorId, long unfollowedAtMillis, long followedAgainAtMillis) {
        return new ScriptCall(UnreadScript.UNFOLLOW_BEFORE, authorKeys(userId),
                new byte[][]{UnreadKeys.decimal(authorId), UnreadKeys.decimal(unfollowedAtMillis), UnreadKeys.decimal(followedAgainAtMillis)});
    }

    /** The five keys of the scripts that drop the user's unread of one author: read_all, unfollow(_before). */
    private byte[][] authorKeys(long userId) {
        return new byte[][]{keys.zBytes(userId), keys.hBytes(userId), keys.floorsBytes(userId), keys.liveBytes(userId),
                keys.changesBytes(userId)};
    }
}
