package io.readmark.store.unread;

import java.util.Arrays;

/**
 * One script with its KEYS and ARGV, as {@link UnreadScriptCalls} and {@link NoticeScriptCalls} encode them and
 * {@link ScriptPipeline} sends them; nothing changes its arrays once built, so a retry sends the same call again.
 */
record ScriptCall(UnreadScript script, byte[][] keys, byte[][] args) {

    /** How many users' deliveries it makes, or 0 for any other change. */
    int deliveries() {
        return switch (script) {
            case DELIVER_ONE, DELIVER_MANY -> changes();
            default -> 0;
        };
    }

    /**
     * The users it writes, each once: those whose hash tag its keys carry ({@link UnreadKeys#userOfTag}). An
     * audience's notice keys name nobody. A user's keys come one after another, so a repeat is most often the last one.
     */
    long[] users() {
        long[] users = new long[keys.length];
        int count = 0;
        for (byte[] key : keys) {
            long user = UnreadKeys.userOfTag(key);
            if (user < 0 || count > 0 && users[count - 1] == user || contains(users, count, user)) continue;
            users[count++] = user;
        }
        return Arrays.copyOf(users, count);
    }

    private static boolean contains(long[] values, int count, long value) {
        for (int i = 0; i < count; i++) {
            if (values[i] == value) return true;
        }
        return false;
    }

    /** How many per-user changes it makes: what {@link ScriptPipeline}'s bounds on unanswered and pending calls count. */
    int changes() {
        return switch (script) {
            case DELIVER_MANY, REMOVE_MANY -> keys.length / UnreadScriptCalls.USER_KEYS;
            default -> 1;
        };
    }
}
