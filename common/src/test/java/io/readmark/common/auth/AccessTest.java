package io.readmark.common.auth;

import static io.readmark.common.auth.TestKeys.NOW;
import static io.readmark.common.auth.TestKeys.claims;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.readmark.common.http.ApiException;
import io.readmark.common.http.JsonHttpServer;
import io.readmark.common.http.Response;
import io.readmark.schemas.Json;

/** The gate in front of routes, on a real {@link JsonHttpServer}: who gets 401, 400, 403, and never a 500. */
class AccessTest {

    private static final Access ACCESS = new Access(new JwtVerifier(AuthConfig.jwt(VerificationKeys.hs256Secret(TestKeys.SECRET),
            null, TestKeys.AUDIENCE, Duration.ofSeconds(60)), TestKeys.CLOCK));

    private static JsonHttpServer server;
    private static JsonHttpServer unprotected;
    private static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws IOException {
        server = routes(new JsonHttpServer("auth-test"), ACCESS).start("127.0.0.1", 0);
        unprotected = routes(new JsonHttpServer("auth-off-test"), new Access(null)).start("127.0.0.1", 0);
    }

    private static JsonHttpServer routes(JsonHttpServer server, Access access) {
        return server
                .route("POST", "/v1/events", access.require(AccessRule.scope(Scopes.PUBLISH), request -> Response.accepted(Map.of("ok", true))))
                .route("POST", "/v1/events:batch", access.requireCaller(PublishRule.ANY_PUBLISHING_SCOPE, (request, caller) ->
                        Response.ok(Map.of("caller", caller == null ? "nobody" : caller.subject()))))
                .route("GET", "/v1/users/{userId}/unread", access.require(AccessRule.ownUser("userId", Scopes.READ_ANY),
                        request -> Response.ok(Map.of("userId", request.pathVariable("userId")))))
                .route("GET", "/v1/users/{userId}/unread/stream", access.requireAllowingQueryToken(
                        AccessRule.ownUser("userId", Scopes.READ_ANY), Duration.ofMinutes(5),
                        (request, principal) -> Response.ok(Map.of("userId", request.pathVariable("userId"),
                                "validUntil", principal.map(p -> p.validUntil().toString()).orElse("no token")))))
                .route("GET", "/health/live", request -> Response.ok(Map.of("status", "UP")));
    }

    @AfterAll
    static void stop() {
        if (server != null) server.close();
        if (unprotected != null) unprotected.close();
        http.close();
    }

    private static String token(String sub, String scope) {
        return TestKeys.hs256(claims(sub).claim("scope", scope).build());
    }

    private static HttpResponse<String> call(JsonHttpServer target, String method, String path, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + target.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (authorization != null) request.header("Authorization", authorization);
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static HttpResponse<String> call(String method, String path, String authorization) {
        return call(server, method, path, authorization);
    }

    private static JsonNode json(HttpResponse<String> response) {
        try {
            return Json.MAPPER.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String challenge(HttpResponse<String> response) {
        return response.headers().firstValue("WWW-Authenticate").orElse("");
    }

    // ---- a token in the query (event streams) ------------------------------------------------------------------

    private static String lasting(String sub, Duration lifetime) {
        return TestKeys.hs256(claims(sub).expirationTime(Date.from(NOW.plus(lifetime))).build());
    }

    @Test
    void aShortLivedTokenInTheQueryIsAcceptedWhereTheRouteAllowsIt() {
        HttpResponse<String> response = call("GET", "/v1/users/101/unread/stream?access_token=" + lasting("101", Duration.ofMinutes(5)), null);

        assertThat(response.statusCode()).isEqualTo(200);
    }

    @Test
    void aLongLivedTokenInTheQueryIsRefusedWithAChallenge() {
        HttpResponse<String> response = call("GET", "/v1/users/101/unread/stream?access_token=" + lasting("101", Duration.ofMinutes(6)), null);

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(challenge(response)).contains("error=\"invalid_token\"");
        assertThat(json(response).get("detail").asText()).contains("short-lived", "300 s");
    }

    @Test
    void aQueryTokenWithoutIssuedAtIsRefused() {
        String token = TestKeys.hs256(claims("101").issueTime(null).expirationTime(Date.from(NOW.plusSeconds(60))).build());

        assertThat(call("GET", "/v1/users/101/unread/stream?access_token=" + token, null).statusCode()).isEqualTo(401);
    }

    @Test
    void aQueryTokenOfAnotherUserIsForbidden() {
        HttpResponse<String> response = call("GET", "/v1/users/102/unread/stream?access_token=" + lasting("101", Duration.ofMinutes(1)), null);

        assertThat(response.statusCode()).isEqualTo(403);
    }

    @Test
    void aTokenInTheQueryAndAnotherInTheHeaderIsABadRequest() {
        String token = lasting("101", Duration.ofMinutes(1));
        HttpResponse<String> response = call("GET", "/v1/users/101/unread/stream?access_token=" + token, "Bearer " + token);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("field").asText()).isEqualTo("access_token");
    }

    @Test
    void aQueryTokenCountsNowhereElse() {
        HttpResponse<String> response = call("GET", "/v1/users/101/unread?access_token=" + lasting("101", Duration.ofMinutes(1)), null);

        assertThat(response.statusCode()).isEqualTo(401);
    }

    @Test
    void theHeaderStillWorksWhereAQueryTokenIsAllowed() {
        HttpResponse<String> response = call("GET", "/v1/users/101/unread/stream", "Bearer " + token("101", ""));

        assertThat(response.statusCode()).isEqualTo(200);
    }

    @Test
    void theRouteIsToldUntilWhenTheTokenIsAcceptedWhereverItCame() {
        // Given: exp in 60 s, accepted for the 60 s of skew after it
        String validUntil = NOW.plusSeconds(120).toString();

        // When
        HttpResponse<String> fromQuery = call("GET", "/v1/users/101/unread/stream?access_token=" + lasting("101", Duration.ofMinutes(1)), null);
        HttpResponse<String> fromHeader = call("GET", "/v1/users/101/unread/stream", "Bearer " + lasting("101", Duration.ofMinutes(1)));
        HttpResponse<String> withAuthenticationOff = call(unprotected, "GET", "/v1/users/101/unread/stream", null);

        // Then
        assertThat(json(fromQuery).get("validUntil").asText()).isEqualTo(validUntil);
        assertThat(json(fromHeader).get("validUntil").asText()).isEqualTo(validUntil);
        assertThat(json(withAuthenticationOff).get("validUntil").asText()).isEqualTo("no token");
    }

    // ---- 401 ------------------------------------------------------------------------------------------------------

    @Test
    void noTokenIsABareBearerChallenge() {
        // When
        HttpResponse<String> response = call("POST", "/v1/events", null);

        // Then
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(challenge(response)).isEqualTo("Bearer realm=\"readmark\"");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(json(response).get("status").asInt()).isEqualTo(401);
        assertThat(json(response).get("detail").asText()).contains("bearer token");
    }

    @Test
    void anotherSchemeIsTreatedAsNoToken() {
        // When
        HttpResponse<String> response = call("POST", "/v1/events", "Basic dXNlcjpwYXNz");

        // Then
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(challenge(response)).isEqualTo("Bearer realm=\"readmark\"");
    }

    @Test
    void aBadTokenSaysWhyInTheChallengeAndTheBody() {
        // Given
        String expired = TestKeys.hs256(claims("1").claim("scope", Scopes.PUBLISH)
                .expirationTime(Date.from(NOW.minusSeconds(3600))).build());

        // When
        HttpResponse<String> response = call("POST", "/v1/events", "Bearer " + expired);

        // Then
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(challenge(response)).isEqualTo(
                "Bearer realm=\"readmark\", error=\"invalid_token\", error_description=\"the token has expired\"");
        assertThat(json(response).get("detail").asText()).isEqualTo("the token has expired");
    }

    @Test
    void theSchemeIsCaseInsensitive() {
        // When
        HttpResponse<String> response = call("POST", "/v1/events", "bearer " + token("svc", Scopes.PUBLISH));

        // Then
        assertThat(response.statusCode()).isEqualTo(202);
    }

    // ---- 403 and the order of checks -------------------------------------------------------------------------------

    @Test
    void publishingNeedsThePublishScope() {
        // When
        HttpResponse<String> user = call("POST", "/v1/events", "Bearer " + token("101", "openid"));
        HttpResponse<String> service = call("POST", "/v1/events", "Bearer " + token("blog-service", Scopes.PUBLISH + " openid"));

        // Then
        assertThat(user.statusCode()).isEqualTo(403);
        assertThat(challenge(user)).isEqualTo("Bearer realm=\"readmark\", error=\"insufficient_scope\", scope=\"readmark:publish\"");
        assertThat(json(user).get("detail").asText()).contains("readmark:publish");
        assertThat(service.statusCode()).isEqualTo(202);
    }

    @Test
    void aRouteDecidingOnTheBodyGetsTheCallerOnceItHoldsSomePublishingScope() {
        // When
        HttpResponse<String> none = call("POST", "/v1/events:batch", "Bearer " + token("101", "openid"));
        HttpResponse<String> reads = call("POST", "/v1/events:batch", "Bearer " + token("101", Scopes.PUBLISH_READS));
        HttpResponse<String> off = call(unprotected, "POST", "/v1/events:batch", null);

        // Then
        assertThat(none.statusCode()).isEqualTo(403);
        assertThat(challenge(none)).isEqualTo("Bearer realm=\"readmark\", error=\"insufficient_scope\", scope=\""
                + String.join(" ", Scopes.PUBLISHING) + "\"");
        assertThat(json(none).get("detail").asText()).contains("readmark:publish:reads or readmark:publish:follows");
        assertThat(json(reads).get("caller").asText()).isEqualTo("101");
        assertThat(json(off).get("caller").asText()).isEqualTo("nobody");
    }

    @Test
    void aUserReadsOnlyTheirOwnStateUnlessTheTokenMayReadAny() {
        // When
        HttpResponse<String> own = call("GET", "/v1/users/101/unread", "Bearer " + token("101", null));
        HttpResponse<String> other = call("GET", "/v1/users/102/unread", "Bearer " + token("101", null));
        HttpResponse<String> service = call("GET", "/v1/users/102/unread", "Bearer " + token("view-service", Scopes.READ_ANY));

        // Then
        assertThat(own.statusCode()).isEqualTo(200);
        assertThat(other.statusCode()).isEqualTo(403);
        assertThat(json(other).get("detail").asText()).startsWith("a user token may read only its own unread state");
        assertThat(challenge(other)).isEqualTo("Bearer realm=\"readmark\", error=\"insufficient_scope\", scope=\"readmark:read-any\"");
        assertThat(service.statusCode()).isEqualTo(200);
    }

    @Test
    void aSubjectSpellingTheUserIdOtherwiseReadsNobody() {
        for (String subject : JwtVerifierTest.NON_CANONICAL_101) {
            // When
            HttpResponse<String> response = call("GET", "/v1/users/101/unread", "Bearer " + token(subject, null));

            // Then: authenticated, but no user: the path's 101 is not the token's
            assertThat(response.statusCode()).as(subject).isEqualTo(403);
            assertThat(challenge(response)).as(subject).contains("error=\"insufficient_scope\"");
        }
        assertThat(call("GET", "/v1/users/0101/unread", "Bearer " + token("0101", null)).statusCode()).isEqualTo(400);
    }

    @Test
    void aTokenForAnotherAudienceIsA401WithTheBearerChallenge() {
        // Given a publish token minted for the view API
        String forView = TestKeys.hs256(claims("svc").audience(AuthConfig.VIEW_API_AUDIENCE).claim("scope", Scopes.PUBLISH).build());

        // When
        HttpResponse<String> response = call("POST", "/v1/events", "Bearer " + forView);

        // Then
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(challenge(response)).isEqualTo("Bearer realm=\"readmark\", error=\"invalid_token\", "
                + "error_description=\"the token's audience (aud) does not include this API\"");
    }

    @Test
    void authenticationComesBeforeThePathIdAndThePathIdBeforeTheRule() {
        // When
        HttpResponse<String> anonymous = call("GET", "/v1/users/abc/unread", null);
        HttpResponse<String> authenticated = call("GET", "/v1/users/abc/unread", "Bearer " + token("101", null));

        // Then
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(authenticated.statusCode()).isEqualTo(400);
        assertThat(json(authenticated).get("field").asText()).isEqualTo("userId");
    }

    @Test
    void routesDeclaredWithoutARuleArePublic() {
        assertThat(call("GET", "/health/live", null).statusCode()).isEqualTo(200);
    }

    @Test
    void withAuthenticationOffEveryRequestIsAllowed() {
        assertThat(call(unprotected, "POST", "/v1/events", null).statusCode()).isEqualTo(202);
        assertThat(call(unprotected, "GET", "/v1/users/5/unread", "Bearer garbage").statusCode()).isEqualTo(200);
    }

    // ---- never a 500 ---------------------------------------------------------------------------------------------

    @Test
    void anyHeaderValueIsEitherAPrincipalOrA401() {
        // Given header values from noise to near-misses of a valid token
        Random random = new Random(42);
        String valid = token("101", Scopes.PUBLISH);
        List<String> values = new ArrayList<>(List.of("", " ", "Bearer", "Bearer ", "Bearer  ", "Bearer ...", "Bearer ..",
                "Bearer a.b.c", "Bearer a.b.c.d.e", "Bearer " + valid + " extra", "Bearer\t" + valid, "Bearer " + "x".repeat(1 << 20),
                "Bearer eyJ.eyJ.", "Bearer e30.e30.", "Bearer bnVsbA.bnVsbA.", "Bearer WzFd.WzFd.WzFd", "Bearer " + valid.replace('.', '!')));
        for (int i = 0; i < 3000; i++) {
            values.add(switch (i % 3) {
                case 0 -> randomString(random, random.nextInt(200));
                case 1 -> "Bearer " + randomParts(random);
                default -> "Bearer " + mutate(random, valid);
            });
        }

        for (String value : values) {
            // When
            Throwable thrown = catchThrowable(() -> ACCESS.authenticate(value));

            // Then
            if (thrown != null) {
                assertThat(thrown).as(value).isInstanceOf(ApiException.class);
                assertThat(((ApiException) thrown).problem().status()).as(value).isEqualTo(401);
            }
        }
    }

    @Test
    void randomBytesInTheHeaderAreAnsweredWith401Or400OverTheWire() throws IOException {
        // Given raw header bytes an HTTP client library would refuse to send (anything but CR and LF)
        Random random = new Random(7);
        List<byte[]> values = new ArrayList<>(List.of(new byte[0], "Bearer ".getBytes(StandardCharsets.US_ASCII)));
        for (int i = 0; i < 200; i++) {
            byte[] value = new byte[random.nextInt(300)];
            random.nextBytes(value);
            for (int j = 0; j < value.length; j++) {
                if (value[j] == '\r' || value[j] == '\n') value[j] = ' ';
            }
            values.add(value);
        }

        for (byte[] value : values) {
            // When
            int status = rawGet("/v1/users/1/unread", value);

            // Then: no token, or not HTTP at all (control bytes in a header value); never a 500
            assertThat(status).as(Arrays.toString(value)).isIn(400, 401);
        }
    }

    @Test
    void aTokenLongerThanTheHeaderLimitIsAnswered431() throws IOException {
        assertThat(rawGet("/v1/users/1/unread", ("Bearer " + "A".repeat(100_000)).getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo(431);
    }

    private static int rawGet(String path, byte[] authorization) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nAuthorization: ")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(authorization);
            out.write("\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String statusLine = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1)).readLine();
            return Integer.parseInt(statusLine.split(" ")[1]);
        }
    }

    private static String randomString(Random random, int length) {
        StringBuilder value = new StringBuilder(length);
        for (int i = 0; i < length; i++) value.append((char) random.nextInt(0x3000));
        return value.toString();
    }

    /** Dots and base64url characters in random proportions: near the shape of a JWT, mostly not one. */
    private static String randomParts(Random random) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ";
        StringBuilder value = new StringBuilder();
        int length = random.nextInt(400);
        for (int i = 0; i < length; i++) value.append(alphabet.charAt(random.nextInt(alphabet.length())));
        return value.toString();
    }

    private static String mutate(Random random, String token) {
        char[] chars = token.toCharArray();
        for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
            chars[random.nextInt(chars.length)] = (char) (33 + random.nextInt(94));
        }
        return new String(chars);
    }
}
