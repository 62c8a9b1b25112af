package io.readmark.processor;

import io.readmark.processor.commit.ThreadChanges;
import io.readmark.store.unread.UnreadChanges;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Records the unread writes of a topology, in order, instead of applying them: one line per call, the operation
 * followed by its user, author, blog (where it has one) and time, e.g. {@code deliver 101 7 1001 2026-01-01T12:00:00Z}.
 * Every thread gets this one recorder; the TopologyTestDriver runs the processors on the test's thread.
 */
final class RecordingChanges implements ThreadChanges, UnreadChanges {

    static final String FLUSH = "flush";

    private final List<String> calls = new ArrayList<>();
    private final List<Integer> deliveryGroups = new ArrayList<>();
    private final List<Integer> deleteGroups = new ArrayList<>();

    @Override
    public UnreadChanges current() {
        return this;
    }

    /** Every call so far, flushes and awaits included. */
    List<String> calls() {
        return List.copyOf(calls);
    }

    /** The sizes of the {@link #deliverToEach} calls so far: how the followers of a post were grouped into scripts. */
    List<Integer> deliveryGroups() {
        return List.copyOf(deliveryGroups);
    }

    /** The sizes of the {@link #deleteForEach} calls so far: how the followers of a deleted post were grouped. */
    List<Integer> deleteGroups() {
        return List.copyOf(deleteGroups);
    }

    /** The writes so far, without the flushes and awaits. */
    List<String> writes() {
        return calls.stream().filter(call -> !call.equals(FLUSH) && !call.startsWith("await ")).toList();
    }

    /** The writes so far, without the flushes and awaits, and forgets every call. */
    List<String> takeWrites() {
        List<String> writes = writes();
        calls.clear();
        return writes;
    }

    static String deliver(long userId, long authorId, long blogId, String at) {
        return "deliver " + userId + " " + authorId + " " + blogId + " " + at;
    }

    static String remove(long userId, long authorId, long blogId, String at) {
        return "remove " + userId + " " + authorId + " " + blogId + " " + at;
    }

    static String readAll(long userId, long authorId, String at) {
        return "readAll " + userId + " " + authorId + " " + at;
    }

    static String allRead(long userId, String at) {
        return "allRead " + userId + " " + at;
    }

    static String inboxSeen(long userId, String at) {
        return "inboxSeen " + userId + " " + at;
    }

    static String unfollow(long userId, long authorId, String at) {
        return "unfollow " + userId + " " + authorId + " " + at;
    }

    static String follow(long userId, long authorId, String at) {
        return "follow " + userId + " " + authorId + " " + at;
    }

    static String unfollowBefore(long userId, long authorId, String unfollowedAt, String followedAgainAt) {
        return "unfollowBefore " + userId + " " + authorId + " " + unfollowedAt + " " + followedAgainAt;
    }

    @Override
    public void deliver(long userId, long authorId, long blogId, long publishedAtMillis) {
        calls.add(deliver(userId, authorId, blogId, time(publishedAtMillis)));
    }

    @Override
    public void deliverToEach(List<Long> userIds, long authorId, long blogId, long publishedAtMillis) {
        deliveryGroups.add(userIds.size());
        for (long userId : userIds) deliver(userId, authorId, blogId, publishedAtMillis);
    }

    @Override
    public void deleteForEach(List<Long> userIds, long authorId, long blogId, long atMillis) {
        deleteGroups.add(userIds.size());
        for (long userId : userIds) delete(userId, authorId, blogId, atMillis);
    }

    @Override
    public void remove(long userId, long authorId, long blogId, long atMillis) {
        calls.add(remove(userId, authorId, blogId, time(atMillis)));
    }

    @Override
    public void readAll(long userId, long authorId, long readAtMillis) {
        calls.add(readAll(userId, authorId, time(readAtMillis)));
    }

    @Override
    public void allRead(long userId, long readAtMillis) {
        calls.add(allRead(userId, time(readAtMillis)));
    }

    @Override
    public void inboxSeen(long userId, long seenAtMillis) {
        calls.add(inboxSeen(userId, time(seenAtMillis)));
    }

    @Override
    public void unfollow(long userId, long authorId, long atMillis) {
        calls.add(unfollow(userId, authorId, time(atMillis)));
    }

    @Override
    public void follow(long userId, long authorId, long atMillis, long unfollowedBeforeMillis) {
        calls.add(follow(userId, authorId, time(atMillis)));
    }

    @Override
    public void unfollowBefore(long userId, long authorId, long unfollowedAtMillis, long followedAgainAtMillis) {
        calls.add(unfollowBefore(userId, authorId, time(unfollowedAtMillis), time(followedAgainAtMillis)));
    }

    static String noticePublished(String audience, long noticeId, String at, String expiresAt) {
        return "noticePublished " + audience + " " + noticeId + " " + at + (expiresAt == null ? "" : " " + expiresAt);
    }

    static String noticeWithdrawn(String audience, long noticeId, String at) {
        return "noticeWithdrawn " + audience + " " + noticeId + " " + at;
    }

    static String audienceJoined(long userId, String audience, String at) {
        return "audienceJoined " + userId + " " + audience + " " + at;
    }

    static String audienceLeft(long userId, String audience, String at) {
        return "audienceLeft " + userId + " " + audience + " " + at;
    }

    static String noticeSent(long userId, long noticeId, String at) {
        return "noticeSent " + userId + " " + noticeId + " " + at;
    }

    static String noticeRead(long userId, long noticeId, String at) {
        return "noticeRead " + userId + " " + noticeId + " " + at;
    }

    static String noticesAllRead(long userId, String at) {
        return "noticesAllRead " + userId + " " + at;
    }

    @Override
    public void noticePublished(String audience, long noticeId, long publishedAtMillis, long expiresAtMillis) {
        calls.add(noticePublished(audience, noticeId, time(publishedAtMillis), expiresAtMillis == 0 ? null : time(expiresAtMillis)));
    }

    @Override
    public void noticeWithdrawn(String audience, long noticeId, long withdrawnAtMillis) {
        calls.add(noticeWithdrawn(audience, noticeId, time(withdrawnAtMillis)));
    }

    @Override
    public void audienceJoined(long userId, String audience, long atMillis) {
        calls.add(audienceJoined(userId, audience, time(atMillis)));
    }

    @Override
    public void audienceLeft(long userId, String audience, long atMillis) {
        calls.add(audienceLeft(userId, audience, time(atMillis)));
    }

    @Override
    public void noticeSent(long userId, long noticeId, long sentAtMillis) {
        calls.add(noticeSent(userId, noticeId, time(sentAtMillis)));
    }

    @Override
    public void noticeRead(long userId, long noticeId, long readAtMillis) {
        calls.add(noticeRead(userId, noticeId, time(readAtMillis)));
    }

    @Override
    public void noticesAllRead(long userId, long readAtMillis) {
        calls.add(noticesAllRead(userId, time(readAtMillis)));
    }

    @Override
    public void flush() {
        calls.add(FLUSH);
    }

    @Override
    public void awaitUnansweredAtMost(int unanswered) {
        calls.add(await(unanswered));
    }

    static String await(int unanswered) {
        return "await " + unanswered;
    }

    private static String time(long millis) {
        return Instant.ofEpochMilli(millis).toString();
    }
}
