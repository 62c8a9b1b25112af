package io.readmark.common.http;

import io.readmark.common.config.Settings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** CORS over real HTTP: preflights answered for allowed origins only, answers readable only by allowed origins. */
class CorsTest {

    private static final String ALLOWED = "https://app.example.com";
    private static JsonHttpServer listed;
    private static JsonHttpServer closed;
    private static JsonHttpServer open;

    @BeforeAll
    static void start() throws IOException {
        listed = server(CorsPolicy.parse("TEST_CORS", "https://APP.example.com:443, http://localhost:3000"));
        closed = server(CorsPolicy.none());
        open = server(CorsPolicy.parse("TEST_CORS", "*"));
    }

    private static JsonHttpServer server(CorsPolicy cors) throws IOException {
        return new JsonHttpServer("cors-test").cors(cors)
                .route("GET", "/v1/users/{userId}/unread", request -> Response.ok(Map.of("userId", 1)))
                .route("POST", "/v1/users/{userId}/unread", request -> Response.accepted(Map.of()))
                .start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        listed.close();
        closed.close();
        open.close();
    }

    @Test
    void aPreflightFromAnAllowedOriginIsAnsweredWithWhatThePathAccepts() throws IOException {
        RawHttp.Answer answer = preflight(listed, ALLOWED, "/v1/users/1/unread");
        assertThat(answer.status()).isEqualTo(204);
        assertThat(header(answer, "Access-Control-Allow-Origin")).contains(ALLOWED);
        assertThat(header(answer, "Access-Control-Allow-Methods")).contains("GET, POST");
        assertThat(header(answer, "Access-Control-Allow-Headers")).contains("Authorization, Content-Type, If-None-Match, Last-Event-ID");
        assertThat(header(answer, "Access-Control-Max-Age")).contains("600");
        assertThat(header(answer, "Vary")).contains("Origin");
        assertThat(header(answer, "Access-Control-Allow-Credentials")).as("tokens are never cookies").isEmpty();
    }

    @Test
    void aPreflightFromAnotherOriginIsRefusedNamingTheOrigin() throws IOException {
        RawHttp.Answer answer = preflight(listed, "https://evil.example", "/v1/users/1/unread");
        assertThat(answer.status()).isEqualTo(403);
        assertThat(answer.body()).contains("\"field\":\"Origin\"").doesNotContain("evil");
        assertThat(header(answer, "Access-Control-Allow-Origin")).isEmpty();
    }

    @Test
    void aPreflightForAPathWithoutRoutesIsANotFound() throws IOException {
        assertThat(preflight(listed, ALLOWED, "/v1/nothing").status()).isEqualTo(404);
    }

    @Test
    void aServerWithoutOriginsAnswersNoPreflight() throws IOException {
        RawHttp.Answer answer = preflight(closed, ALLOWED, "/v1/users/1/unread");
        assertThat(answer.status()).as("OPTIONS is no route's method").isEqualTo(405);
        assertThat(header(answer, "Access-Control-Allow-Origin")).isEmpty();
    }

    @Test
    void anAnswerToAnAllowedOriginCarriesItAndExposesRetryAfter() throws IOException {
        RawHttp.Answer answer = get(listed, "http://localhost:3000", "/v1/users/1/unread");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(header(answer, "Access-Control-Allow-Origin")).contains("http://localhost:3000");
        assertThat(header(answer, "Access-Control-Expose-Headers")).contains("ETag, Retry-After, WWW-Authenticate");
    }

    @Test
    void problemsAreReadableByAnAllowedOriginToo() throws IOException {
        RawHttp.Answer answer = get(listed, ALLOWED, "/v1/nothing");
        assertThat(answer.status()).isEqualTo(404);
        assertThat(header(answer, "Access-Control-Allow-Origin")).contains(ALLOWED);
    }

    @Test
    void anAnswerToAnotherOriginCarriesNoAllowOriginButVariesByOrigin() throws IOException {
        RawHttp.Answer answer = get(listed, "https://app.example.com.evil.example", "/v1/users/1/unread");
        assertThat(answer.status()).as("the server still answers; the browser keeps the page from reading it").isEqualTo(200);
        assertThat(header(answer, "Access-Control-Allow-Origin")).isEmpty();
        assertThat(header(answer, "Vary")).contains("Origin");
    }

    @Test
    void anyOriginIsAnsweredWithAStarThatNeedsNoVary() throws IOException {
        RawHttp.Answer answer = get(open, "https://anyone.example", "/v1/users/1/unread");
        assertThat(header(answer, "Access-Control-Allow-Origin")).contains("*");
        assertThat(header(answer, "Vary")).isEmpty();
        assertThat(preflight(open, "https://anyone.example", "/v1/users/1/unread").status()).isEqualTo(204);
        RawHttp.Answer withoutOrigin = RawHttp.exchange(open.port(), "GET /v1/users/1/unread HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(header(withoutOrigin, "Access-Control-Allow-Origin")).as("a cached copy serves every page alike").contains("*");
    }

    @Test
    void aServerWithoutOriginsAddsNothing() throws IOException {
        RawHttp.Answer answer = get(closed, ALLOWED, "/v1/users/1/unread");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.head()).doesNotContainIgnoringCase("Access-Control").doesNotContainIgnoringCase("Vary");
    }

    @Test
    void unsetMeansNoOrigin() {
        assertThat(CorsPolicy.from(Settings.of(Map.of(), Map.of()), "TEST_CORS").enabled()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"app.example.com", "https://app.example.com/", "https://app.example.com/path", "ftp://x.example",
            "https://user@app.example.com", "https://app.example.com?x", "*, https://app.example.com", "null"})
    void aSettingThatIsNotAnOriginStopsTheStart(String value) {
        assertThatThrownBy(() -> CorsPolicy.parse("TEST_CORS", value))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("TEST_CORS must be '*' or a comma-separated list of origins");
    }

    private static RawHttp.Answer preflight(JsonHttpServer server, String origin, String path) throws IOException {
        return RawHttp.exchange(server.port(), "OPTIONS " + path + " HTTP/1.1\r\nHost: x\r\nOrigin: " + origin
                + "\r\nAccess-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: authorization\r\n\r\n");
    }

    private static RawHttp.Answer get(JsonHttpServer server, String origin, String path) throws IOException {
        return RawHttp.exchange(server.port(), "GET " + path + " HTTP/1.1\r\nHost: x\r\nOrigin: " + origin + "\r\n\r\n");
    }

    private static Optional<String> header(RawHttp.Answer answer, String name) {
        Matcher value = Pattern.compile("(?im)^" + Pattern.quote(name) + ":\\s*(.*?)\\s*$").matcher(answer.head());
        return value.find() ? Optional.of(value.group(1)) : Optional.empty();
    }
}
