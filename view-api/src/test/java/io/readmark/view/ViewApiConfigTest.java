package io.readmark.view;

import io.readmark.view.push.StreamSettings;
import io.readmark.store.redis.RedisEndpoint;
import io.readmark.store.redis.RedisEndpoint;

import io.readmark.common.auth.AuthConfig;
import io.readmark.common.config.Settings;
import io.readmark.common.http.CorsPolicy;
import io.readmark.common.http.HttpLimits;
import io.readmark.store.unread.UnreadKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ViewApiConfigTest {

    /** With authentication off unless the environment says otherwise, as it has no usable default. */
    private static ViewApiConfig fromEnvironment(Map<String, String> environment) {
        Map<String, String> withAuth = new HashMap<>(environment);
        withAuth.putIfAbsent(AuthConfig.MODE, "off");
        return ViewApiConfig.from(Settings.of(Map.of(), withAuth));
    }

    @Test
    void shouldUseTheLocalDefaultsWhenNothingIsSet() {
        // Given an empty environment but for READMARK_AUTH=off
        // When
        ViewApiConfig config = fromEnvironment(Map.of());
        // Then
        assertThat(config).isEqualTo(new ViewApiConfig("0.0.0.0", 8081, RedisEndpoint.of("redis://localhost:6379"),
                UnreadKeys.DEFAULT_PREFIX, Duration.ofSeconds(1), 20, 100, 5, Duration.ofSeconds(2), AuthConfig.off(),
                "127.0.0.1", 9081, HttpLimits.defaults(), StreamSettings.DEFAULTS, CorsPolicy.none(), Duration.ofSeconds(1),
                1000, false));
    }

    @Test
    void shouldRefuseToStartWithoutAKeyWhenAuthenticationIsLeftOn() {
        // Given an empty environment
        Settings settings = Settings.of(Map.of(), Map.of());
        // When / Then
        assertThatThrownBy(() -> ViewApiConfig.from(settings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("READMARK_AUTH=jwt needs one of AUTH_JWT_HS256_SECRET, AUTH_JWT_PUBLIC_KEY_FILE, AUTH_JWKS_FILE");
    }

    @Test
    void shouldTakeEverySettingFromTheEnvironment() {
        // Given
        Map<String, String> environment = Map.ofEntries(
                Map.entry("VIEW_API_HOST", "127.0.0.1"),
                Map.entry("VIEW_API_PORT", "9090"),
                Map.entry("REDIS_URL", "redis-cluster://r1:7000,r2:7001"),
                Map.entry("READMARK_REDIS_PREFIX", "staging"),
                Map.entry("VIEW_API_REDIS_TIMEOUT", "PT0.5S"),
                Map.entry("VIEW_API_DEFAULT_LIMIT", "10"),
                Map.entry("VIEW_API_MAX_LIMIT", "50"),
                Map.entry("VIEW_API_CIRCUIT_FAILURES", "3"),
                Map.entry("VIEW_API_CIRCUIT_OPEN", "PT10S"),
                Map.entry("VIEW_API_MANAGEMENT_HOST", "10.0.0.5"),
                Map.entry("VIEW_API_MANAGEMENT_PORT", "9191"),
                Map.entry("HTTP_MAX_CONNECTIONS", "200"),
                Map.entry("HTTP_REQUEST_TIMEOUT", "PT5S"),
                Map.entry("VIEW_API_STREAMS_PER_USER", "2"),
                Map.entry("VIEW_API_MAX_STREAMS", "500"),
                Map.entry("VIEW_API_STREAM_HEARTBEAT", "PT20S"),
                Map.entry("VIEW_API_STREAM_RETRY", "5000"),
                Map.entry("VIEW_API_STREAM_OPENS_PER_SECOND", "300"),
                Map.entry("VIEW_API_QUERY_TOKEN_MAX_LIFETIME", "PT2M"),
                Map.entry("VIEW_API_STREAM_MAX_AGE", "PT30M"),
                Map.entry("READMARK_AUTH", "jwt"),
                Map.entry("AUTH_JWT_HS256_SECRET", "a-shared-secret-of-at-least-32-bytes"),
                Map.entry("AUTH_JWT_AUDIENCE", "https://view.blog.example"),
                Map.entry("VIEW_API_CORS_ORIGINS", "https://App.Example.com:443, http://localhost:3000"),
                Map.entry("VIEW_API_NOTICE_CACHE_TTL", "0"),
                Map.entry("VIEW_API_HASH_READ_FIELDS", "5000"),
                Map.entry("READMARK_LAYOUT_UPGRADE", "true"));
        // When
        ViewApiConfig config = fromEnvironment(environment);
        // Then
        assertThat(config).usingRecursiveComparison().ignoringFields("auth")
                .isEqualTo(new ViewApiConfig("127.0.0.1", 9090, RedisEndpoint.of("redis-cluster://r1:7000,r2:7001"),
                        "staging", Duration.ofMillis(500), 10, 50, 3, Duration.ofSeconds(10), AuthConfig.off(),
                        "10.0.0.5", 9191, HttpLimits.defaults().withMaxConnections(200)
                                .withTimeouts(Duration.ofSeconds(5), HttpLimits.defaults().idleTimeout()),
                        new StreamSettings(2, 500, Duration.ofSeconds(20), Duration.ofSeconds(5), 300, Duration.ofMinutes(2),
                                Duration.ofMinutes(30)),
                        new CorsPolicy(Set.of("https://app.example.com", "http://localhost:3000"), false), Duration.ZERO, 5000, true));
        assertThat(config.auth().enabled()).isTrue();
        assertThat(config.auth().audience()).isEqualTo("https://view.blog.example");
        assertThat(fromEnvironment(Map.of("READMARK_AUTH", "jwt", "AUTH_JWT_HS256_SECRET", "a-shared-secret-of-at-least-32-bytes"))
                .auth().audience()).as("the view API's own audience by default").isEqualTo("readmark-view");
    }

    @Test
    void shouldReadATimeoutGivenAsMilliseconds() {
        // Given / When
        ViewApiConfig config = fromEnvironment(Map.of("VIEW_API_REDIS_TIMEOUT", "250"));
        // Then
        assertThat(config.redisTimeout()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void shouldReadTheCircuitOpenTimeGivenAsMilliseconds() {
        // Given / When
        ViewApiConfig config = fromEnvironment(Map.of("VIEW_API_CIRCUIT_OPEN", "1500"));
        // Then
        assertThat(config.circuitOpen()).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void shouldLetOverridesBeatTheEnvironment() {
        // Given
        Settings settings = Settings.of(Map.of("VIEW_API_PORT", "0"), Map.of("VIEW_API_PORT", "9090", "READMARK_AUTH", "off"));
        // When
        ViewApiConfig config = ViewApiConfig.from(settings);
        // Then
        assertThat(config.port()).isZero();
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({
            "VIEW_API_PORT, eighty",
            "VIEW_API_PORT, 70000",
            "VIEW_API_PORT, -1",
            "VIEW_API_REDIS_TIMEOUT, soon",
            "VIEW_API_REDIS_TIMEOUT, 0",
            "VIEW_API_DEFAULT_LIMIT, x",
            "VIEW_API_DEFAULT_LIMIT, 0",
            "VIEW_API_DEFAULT_LIMIT, 101",
            "VIEW_API_MAX_LIMIT, 0",
            "VIEW_API_CIRCUIT_FAILURES, 0",
            "VIEW_API_CIRCUIT_FAILURES, -2",
            "VIEW_API_CIRCUIT_FAILURES, many",
            "VIEW_API_CIRCUIT_OPEN, 0",
            "VIEW_API_CIRCUIT_OPEN, -PT1S",
            "VIEW_API_CIRCUIT_OPEN, a while",
            "READMARK_REDIS_PREFIX, a{b}",
            "VIEW_API_STREAM_MAX_AGE, 0",
            "VIEW_API_STREAM_MAX_AGE, P2D",
            "READMARK_AUTH, maybe",
    })
    void shouldNameTheVariableWhenAValueIsBad(String variable, String value) {
        // Given
        Map<String, String> environment = Map.of(variable, value);
        // When / Then
        assertThatThrownBy(() -> fromEnvironment(environment))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(variable);
    }

    @Test
    void shouldRefuseADefaultLimitAboveALoweredMaximum() {
        // Given
        Map<String, String> environment = Map.of("VIEW_API_MAX_LIMIT", "10");
        // When / Then
        assertThatThrownBy(() -> fromEnvironment(environment))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("VIEW_API_DEFAULT_LIMIT")
                .hasMessageContaining("1..10");
    }
}
