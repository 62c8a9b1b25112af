package io.readmark.view;

import io.readmark.view.push.StreamSettings;

import io.readmark.common.auth.AuthConfig;
import io.readmark.common.config.Settings;
import io.readmark.common.http.CorsPolicy;
import io.readmark.common.http.HttpLimits;
import io.readmark.store.unread.BoundedHashRead;
import io.readmark.store.redis.RedisEndpoint;
import io.readmark.store.unread.UnreadKeys;

import java.time.Duration;
import java.util.Objects;

/**
 * Everything the view API reads from its environment, validated once at startup so a bad value fails with the name
 * of the variable to fix rather than surfacing later as a wrong answer.
 *
 * @param host            interface to listen on
 * @param port            HTTP port; 0 picks a free one
 * @param redis           where Redis is and how to authenticate to it ({@code REDIS_URL} and the {@code REDIS_*} settings)
 * @param redisPrefix     key namespace shared with the stream processor that writes the keys
 * @param redisTimeout    how long one Redis command (and a readiness PING) may take before the answer is 503
 * @param defaultLimit    page size when a request names none
 * @param maxLimit        the largest page size a request may ask for
 * @param circuitFailures consecutive Redis failures after which requests are refused without asking Redis
 * @param circuitOpen     how long they are refused before one trial call may close the circuit again
 * @param auth            how callers are authenticated ({@code READMARK_AUTH} and the {@code AUTH_*} settings); tokens
 *                        must name {@code AUTH_JWT_AUDIENCE}, by default {@value AuthConfig#VIEW_API_AUDIENCE}
 * @param managementHost  interface of the management port (health, metrics): loopback unless set
 * @param managementPort  management port; 0 picks a free one
 * @param http            what one client may hold of the API port ({@code HTTP_*} settings)
 * @param streams         the bounds and clocks of the unread stream ({@code VIEW_API_STREAM*} settings)
 * @param cors            browser origins whose pages may call the API ({@code VIEW_API_CORS_ORIGINS}; none by default)
 * @param noticeCacheTtl  how long an audience's live notices are kept in memory: a broadcast shows in counts within it
 *                        on every instance (at once where a stream follows the audience); 0 reads Redis every time
 * @param hashReadFields  the fields one read of a user's counts or audiences hash asks an HSCAN for: a hash up to about
 *                        this many is read whole, a bigger one in part (totals exact)
 * @param layoutUpgrade   whether users may still be on the Redis layout before z and h ({@code READMARK_LAYOUT_UPGRADE},
 *                        while {@code readmark migrate} runs): such a user is answered from its old keys
 */
public record ViewApiConfig(String host, int port, RedisEndpoint redis, String redisPrefix, Duration redisTimeout,
                            int defaultLimit, int maxLimit, int circuitFailures, Duration circuitOpen,
                            AuthConfig auth, String managementHost, int managementPort, HttpLimits http,
                            StreamSettings streams, CorsPolicy cors, Duration noticeCacheTtl,
                            int hashReadFields, boolean layoutUpgrade) {

    public static final String HOST = "VIEW_API_HOST";
    public static final String PORT = "VIEW_API_PORT";
    public static final String REDIS_URL = RedisEndpoint.URL;
    public static final String REDIS_PREFIX = "READMARK_REDIS_PREFIX";
    public static final String REDIS_TIMEOUT = "VIEW_API_REDIS_TIMEOUT";
    public static final String DEFAULT_LIMIT = "VIEW_API_DEFAULT_LIMIT";
    public static final String MAX_LIMIT = "VIEW_API_MAX_LIMIT";
    public static final String CIRCUIT_FAILURES = "VIEW_API_CIRCUIT_FAILURES";
    public static final String CIRCUIT_OPEN = "VIEW_API_CIRCUIT_OPEN";
    public static final String MANAGEMENT_HOST = "VIEW_API_MANAGEMENT_HOST";
    public static final String MANAGEMENT_PORT = "VIEW_API_MANAGEMENT_PORT";
    public static final String CORS_ORIGINS = "VIEW_API_CORS_ORIGINS";
    public static final String NOTICE_CACHE_TTL = "VIEW_API_NOTICE_CACHE_TTL";
    public static final String HASH_READ_FIELDS = "VIEW_API_HASH_READ_FIELDS";
    public static final String LAYOUT_UPGRADE = "READMARK_LAYOUT_UPGRADE";

    public ViewApiConfig {
        require(host != null && !host.isBlank(), HOST, "a host name or address", host);
        require(port >= 0 && port <= 65_535, PORT, "a port 0..65535", port);
        Objects.requireNonNull(redis, "redis");
        try {
            new UnreadKeys(redisPrefix);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(REDIS_PREFIX + ": " + e.getMessage(), e);
        }
        require(redisTimeout != null && redisTimeout.isPositive(), REDIS_TIMEOUT, "a positive duration", redisTimeout);
        require(maxLimit > 0, MAX_LIMIT, "a positive integer", maxLimit);
        require(defaultLimit > 0 && defaultLimit <= maxLimit, DEFAULT_LIMIT,
                "an integer 1.." + maxLimit + " (" + MAX_LIMIT + ")", defaultLimit);
        require(circuitFailures > 0, CIRCUIT_FAILURES, "a positive integer", circuitFailures);
        require(circuitOpen != null && circuitOpen.isPositive(), CIRCUIT_OPEN, "a positive duration", circuitOpen);
        Objects.requireNonNull(auth, "auth");
        require(managementHost != null && !managementHost.isBlank(), MANAGEMENT_HOST, "a host name or address", managementHost);
        require(managementPort >= 0 && managementPort <= 65_535, MANAGEMENT_PORT, "a port 0..65535", managementPort);
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(streams, "streams");
        Objects.requireNonNull(cors, "cors");
        require(noticeCacheTtl != null && !noticeCacheTtl.isNegative(), NOTICE_CACHE_TTL, "a duration, 0 or more", noticeCacheTtl);
        require(hashReadFields >= 1 && hashReadFields <= 100_000, HASH_READ_FIELDS, "1 to 100000", hashReadFields);
    }

    /** Reads every setting, falling back to the defaults of a local run. */
    public static ViewApiConfig from(Settings settings) {
        return new ViewApiConfig(
                settings.string(HOST, "0.0.0.0"),
                settings.integer(PORT, 8081),
                RedisEndpoint.from(settings),
                settings.string(REDIS_PREFIX, UnreadKeys.DEFAULT_PREFIX),
                settings.duration(REDIS_TIMEOUT, Duration.ofSeconds(1)),
                settings.integer(DEFAULT_LIMIT, 20),
                settings.integer(MAX_LIMIT, 100),
                settings.integer(CIRCUIT_FAILURES, 5),
                settings.duration(CIRCUIT_OPEN, Duration.ofSeconds(2)),
                AuthConfig.from(settings, AuthConfig.VIEW_API_AUDIENCE),
                settings.string(MANAGEMENT_HOST, "127.0.0.1"),
                settings.integer(MANAGEMENT_PORT, 9081),
                HttpLimits.from(settings),
                StreamSettings.from(settings),
                CorsPolicy.from(settings, CORS_ORIGINS),
                settings.duration(NOTICE_CACHE_TTL, Duration.ofSeconds(1)),
                settings.integer(HASH_READ_FIELDS, BoundedHashRead.FIELDS),
                settings.bool(LAYOUT_UPGRADE, false));
    }

    /** The key names this configuration reads. */
    public UnreadKeys keys() {
        return new UnreadKeys(redisPrefix);
    }

    private static void require(boolean valid, String name, String expected, Object value) {
        if (!valid) throw new IllegalArgumentException(name + " must be " + expected + ", was '" + value + "'");
    }
}
