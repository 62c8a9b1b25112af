package io.readmark.view.push;

import io.readmark.common.config.Settings;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * The bounds and clocks of {@code GET /v1/users/{userId}/unread/stream}.
 *
 * @param perUser               streams one user may have open on one instance (429 beyond)
 * @param maxStreams            streams open on one instance (503 beyond, so a client tries another instance)
 * @param heartbeat             how often a quiet stream gets a comment line, and the user's live key is refreshed
 * @param retry                 the shortest {@code retry:} hint: how long a client waits before it reconnects
 * @param opensPerSecond        streams started per second at most ({@link StreamOpenings}), so a reconnect storm reaches
 *                              Redis at that pace
 * @param maxQueryTokenLifetime the longest {@code exp - iat} of a token sent as {@code access_token} in the query
 * @param maxAge                the longest a stream stays open, whatever its token ({@link StreamLifetime})
 */
public record StreamSettings(int perUser, int maxStreams, Duration heartbeat, Duration retry, int opensPerSecond,
                             Duration maxQueryTokenLifetime, Duration maxAge) {

    private static final int LIVE_TTL_HEARTBEATS = 4;

    /**
     * Failed refreshes of a user's live key in a row at which their streams end: one fewer than the heartbeats the key
     * lives, so a stream ends before its key can expire unnoticed, yet one slow Redis moment ends no stream.
     */
    static final int REFRESH_FAILURES_ENDING_STREAMS = LIVE_TTL_HEARTBEATS - 1;

    public static final String PER_USER = "VIEW_API_STREAMS_PER_USER";
    public static final String MAX_STREAMS = "VIEW_API_MAX_STREAMS";
    public static final String HEARTBEAT = "VIEW_API_STREAM_HEARTBEAT";
    public static final String RETRY = "VIEW_API_STREAM_RETRY";
    public static final String OPENS_PER_SECOND = "VIEW_API_STREAM_OPENS_PER_SECOND";
    public static final String MAX_QUERY_TOKEN_LIFETIME = "VIEW_API_QUERY_TOKEN_MAX_LIFETIME";
    public static final String MAX_AGE = "VIEW_API_STREAM_MAX_AGE";

    public static final StreamSettings DEFAULTS = new StreamSettings(4, 10_000, Duration.ofSeconds(30), Duration.ofSeconds(3),
            1_000, Duration.ofMinutes(5), Duration.ofHours(1));

    public StreamSettings {
        require(perUser > 0, PER_USER, "a positive integer", perUser);
        require(maxStreams > 0, MAX_STREAMS, "a positive integer", maxStreams);
        require(heartbeat != null && heartbeat.toMillis() > 0, HEARTBEAT, "a positive duration", heartbeat);
        require(retry != null && retry.toMillis() > 0, RETRY, "a positive duration", retry);
        require(opensPerSecond > 0 && opensPerSecond <= 1_000_000, OPENS_PER_SECOND, "1 to 1000000", opensPerSecond);
        require(maxQueryTokenLifetime != null && maxQueryTokenLifetime.toSeconds() > 0, MAX_QUERY_TOKEN_LIFETIME,
                "a positive duration of a second or more", maxQueryTokenLifetime);
        // At most a day: slots turn over, and without authentication nothing else ends a stream.
        require(maxAge != null && maxAge.toSeconds() > 0 && maxAge.compareTo(Duration.ofDays(1)) <= 0, MAX_AGE,
                "a duration from a second to a day", maxAge);
    }

    public static StreamSettings from(Settings settings) {
        return new StreamSettings(
                settings.integer(PER_USER, DEFAULTS.perUser()),
                settings.integer(MAX_STREAMS, DEFAULTS.maxStreams()),
                settings.duration(HEARTBEAT, DEFAULTS.heartbeat()),
                settings.duration(RETRY, DEFAULTS.retry()),
                settings.integer(OPENS_PER_SECOND, DEFAULTS.opensPerSecond()),
                settings.duration(MAX_QUERY_TOKEN_LIFETIME, DEFAULTS.maxQueryTokenLifetime()),
                settings.duration(MAX_AGE, DEFAULTS.maxAge()));
    }

    /** How long the user's live key outlives its last refresh: four heartbeats, so a late tick or two loses nothing. */
    public Duration liveTtl() {
        return heartbeat.multipliedBy(LIVE_TTL_HEARTBEATS);
    }

    /**
     * One stream's {@code retry:} hint, drawn from {@code retry} to twice it: the streams an instance loses at once
     * (it restarted) come back spread over that window.
     */
    public Duration retryDrawn(RandomGenerator random) {
        return retry.plusMillis(random.nextLong(retry.toMillis() + 1));
    }

    private static void require(boolean valid, String name, String expected, Object value) {
        if (!valid) throw new IllegalArgumentException(name + " must be " + expected + ", was '" + value + "'");
    }
}
