package io.readmark.processor;

import io.readmark.processor.commit.ThreadWrites;
import io.readmark.store.UnreadWrites;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Records the unread writes of a topology, in order, instead of applying them: one line per call, the operation
 * followed by its user, author, blog (where it has one) and time, e.g. {@code deliver 101 7 1001 2026-01-01T12:00:00Z}.
 * Every thread gets this one recorder; the TopologyTestDriver runs the processors on the test's thread.
 */
final class RecordingWrites implements ThreadWrites, UnreadWrites {

    static final String FLUSH = "flush";

    private final List<String> calls = new ArrayList<>();

    @Override
    public UnreadWrites current() {
        return this;
    }

    /** Every call so far, flushes included. */
    List<String> calls() {
        return List.copyOf(calls);
    }

    /** The writes so far, without the flushes. */
    List<String> writes() {
        return calls.stream().filter(call -> !call.equals(FLUSH)).toList();
    }

    /** The writes so far, without the flushes, and forgets every call. */
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

    @Override
    public void deliver(long userId, long authorId, long blogId, long publishedAtMillis) {
        calls.add(deliver(userId, authorId, blogId, time(publishedAtMillis)));
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
    public void follow(long userId, long authorId, long atMillis) {
        calls.add(follow(userId, authorId, time(atMillis)));
    }

    @Override
    public void flush() {
        calls.add(FLUSH);
    }

    private static String time(long millis) {
        return Instant.ofEpochMilli(millis).toString();
    }
}
