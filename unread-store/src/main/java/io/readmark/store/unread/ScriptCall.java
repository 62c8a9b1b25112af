package io.readmark.store.unread;

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

    /** How many per-user changes it makes: what {@link ScriptPipeline}'s bounds on unanswered and pending calls count. */
    int changes() {
        return switch (script) {
            case DELIVER_MANY, REMOVE_MANY -> keys.length / UnreadScriptCalls.USER_KEYS;
            default -> 1;
        };
    }
}
