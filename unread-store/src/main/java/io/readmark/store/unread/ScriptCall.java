package io.readmark.store.unread;

import java.util.List;
import java.util.function.Function;

/**
 * One script with its KEYS and ARGV, as {@link UnreadScriptCalls} and {@link NoticeScriptCalls} encode them and
 * {@link ScriptPipeline} sends them; nothing changes its arrays once built, so a retry sends the same call again.
 *
 * @param next when there is one, turns the script's reply into the calls that follow from it (a chained write)
 */
record ScriptCall(UnreadScript script, byte[][] keys, byte[][] args, Function<Object, List<ScriptCall>> next) {

    ScriptCall(UnreadScript script, byte[][] keys, byte[][] args) {
        this(script, keys, args, null);
    }

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
