package io.readmark.producer;

import io.readmark.testing.KafkaRecords;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import io.readmark.common.config.Settings;
import io.readmark.schemas.BlogPublished;
import io.readmark.schemas.BlogRead;
import io.readmark.schemas.Event;
import io.readmark.schemas.Followed;
import io.readmark.schemas.NoticePublished;
import io.readmark.schemas.Topics;

/**
 * The ingest endpoints with bearer JWTs checked against an RSA public key file, on a real broker. The view API has a
 * key pair of its own: neither its key nor its audience opens this API. Each kind of event needs its own scope.
 */
class ProducerApiAuthIT {

    private static final String ISSUER = "https://id.readmark.test";
    /** The defaults: the API is started without AUTH_JWT_AUDIENCE. */
    private static final String PRODUCER_AUDIENCE = "readmark-producer";
    private static final String VIEW_AUDIENCE = "readmark-view";
    private static final Instant AT = Instant.parse("2026-03-01T12:00:00Z");
    private static final String EVENT = """
            {"type":"BlogPublished","eventId":"auth-pub-1","blogId":501,"authorId":7,"publishedAt":"2026-03-01T12:00:00Z"}""";

    @TempDir
    static Path keys;

    private static KeyPair issuerKey;
    /** The view API's pair, which signs the tokens the view API accepts. */
    private static KeyPair viewKey;
    @AutoClose
    private static ProducerApi api;
    @AutoClose
    private static HttpCalls http;

    @BeforeAll
    static void start() throws Exception {
        issuerKey = rsaKeyPair();
        viewKey = rsaKeyPair();
        Path pem = Files.writeString(keys.resolve("issuer.pem"), "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(issuerKey.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n");
        Topics topics = Topics.from(KafkaRecords.createTopicsFor(ProducerApiAuthIT.class));
        api = ProducerApi.start(ProducerApiConfig.from(Settings.of(Map.of(
                "READMARK_TOPIC_BLOG_EVENTS", topics.blogEvents().name(),
                "READMARK_TOPIC_FOLLOW_EVENTS", topics.followEvents().name(),
                "READMARK_TOPIC_READ_EVENTS", topics.readEvents().name(),
                "READMARK_TOPIC_NOTICE_EVENTS", topics.noticeEvents().name()), Map.of(
                "PRODUCER_API_HOST", "127.0.0.1",
                "PRODUCER_API_PORT", "0",
                "PRODUCER_API_MANAGEMENT_PORT", "0",
                "KAFKA_BOOTSTRAP_SERVERS", KafkaRecords.bootstrap(),
                "READMARK_AUTH", "jwt",
                "AUTH_JWT_PUBLIC_KEY_FILE", pem.toString(),
                "AUTH_JWT_ISSUER", ISSUER))));
        http = new HttpCalls(api.port());
    }

    @Test
    void withoutATokenThePostIsRefusedBeforeItsBodyIsLookedAt() {
        // When: no token, and a body that would be a 415 if it were read
        HttpResponse<String> response = http.post("/v1/events", "text/plain", "x".getBytes(StandardCharsets.UTF_8));

        // Then
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"readmark\"");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    }

    @Test
    void aTokenFromAnotherIssuerOrKeyIsRefused() throws Exception {
        // Given
        String otherKey = sign(rsaKeyPair(), claims("blog-service", "readmark:publish"));
        String otherIssuer = sign(issuerKey, claims("blog-service", "readmark:publish").issuer("https://evil.test"));

        // When
        HttpResponse<String> withOtherKey = post(otherKey);
        HttpResponse<String> withOtherIssuer = post(otherIssuer);

        // Then
        assertThat(withOtherKey.statusCode()).isEqualTo(401);
        assertThat(withOtherKey.headers().firstValue("WWW-Authenticate")).hasValue(
                "Bearer realm=\"readmark\", error=\"invalid_token\", error_description=\"the token's signature does not verify\"");
        assertThat(withOtherIssuer.statusCode()).isEqualTo(401);
        assertThat(HttpCalls.json(withOtherIssuer).get("detail").asText()).contains("issuer");
    }

    @Test
    void aTokenForTheViewApiIsRefusedWhicheverKeySignedIt() {
        // Given publish tokens, each wrong in one way only
        String viewKeyProducerAudience = sign(viewKey, claims("blog-service", "readmark:publish"));
        String producerKeyViewAudience = sign(issuerKey, claims("blog-service", "readmark:publish").audience(VIEW_AUDIENCE));
        String noAudience = sign(issuerKey, claims("blog-service", "readmark:publish").audience((String) null));

        // When
        HttpResponse<String> withViewKey = post(viewKeyProducerAudience);
        HttpResponse<String> forView = post(producerKeyViewAudience);
        HttpResponse<String> forNobody = post(noAudience);

        // Then
        assertThat(withViewKey.statusCode()).isEqualTo(401);
        assertThat(HttpCalls.json(withViewKey).get("detail").asText()).isEqualTo("the token's signature does not verify");
        assertThat(forView.statusCode()).isEqualTo(401);
        assertThat(forView.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"readmark\", error=\"invalid_token\", "
                + "error_description=\"the token's audience (aud) does not include this API\"");
        assertThat(forNobody.statusCode()).isEqualTo(401);
        assertThat(HttpCalls.json(forNobody).get("detail").asText()).isEqualTo("the token has no aud (audience) claim");
    }

    @Test
    void aUserTokenWithoutThePublishScopeIsForbidden() {
        // When
        HttpResponse<String> response = post(sign(issuerKey, claims("101", "openid profile")));

        // Then
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue(
                "Bearer realm=\"readmark\", error=\"insufficient_scope\", scope=\"readmark:publish readmark:publish:reads "
                        + "readmark:publish:follows readmark:publish:posts readmark:publish:notices readmark:publish:broadcast\"");
        assertThat(HttpCalls.json(response).get("title").asText()).isEqualTo("Forbidden");
    }

    @Test
    void aReadsTokenMarksItsOwnUsersPostReadButNotAnothers() {
        // Given user 101's token that may publish reads
        String user = sign(issuerKey, claims("101", "readmark:publish:reads"));

        // When
        HttpResponse<String> own = post(user, blogRead("auth-read-own", 101));
        HttpResponse<String> other = post(user, blogRead("auth-read-other", 102));

        // Then
        assertThat(own.statusCode()).isEqualTo(202);
        assertThat(storedEvent(HttpCalls.json(own))).isEqualTo(new BlogRead("auth-read-own", 101, 501, 7, AT));
        assertForbidden(other, "readmark:publish", "userId", "BlogRead");
    }

    @Test
    void aFollowsTokenMayFollowButNotPublishAPost() {
        // Given
        String followService = sign(issuerKey, claims("follow-service", "readmark:publish:follows"));

        // When
        HttpResponse<String> post = post(followService, EVENT);
        HttpResponse<String> follow = post(followService, """
                {"type":"Followed","eventId":"auth-follow-1","followerId":102,"authorId":7,"at":"2026-03-01T12:00:00Z"}""");

        // Then
        assertForbidden(post, "readmark:publish:posts", "type", "BlogPublished");
        assertThat(follow.statusCode()).isEqualTo(202);
        assertThat(storedEvent(HttpCalls.json(follow))).isEqualTo(new Followed("auth-follow-1", 102, 7, AT));
    }

    @Test
    void aNoticesTokenMayNotifyAnAudienceButBroadcastingToEveryoneNeedsItsOwnScope() {
        // Given
        String noticeService = sign(issuerKey, claims("notice-service", "readmark:publish:notices"));
        String broadcaster = sign(issuerKey, claims("announcements", "readmark:publish:broadcast"));

        // When
        HttpResponse<String> toEveryone = post(noticeService, noticePublished("auth-notice-all", "everyone"));
        HttpResponse<String> toTeam = post(noticeService, noticePublished("auth-notice-team", "team-a"));
        HttpResponse<String> broadcast = post(broadcaster, noticePublished("auth-broadcast", "everyone"));

        // Then
        assertForbidden(toEveryone, "readmark:publish:broadcast", "audience", "NoticePublished");
        assertThat(toTeam.statusCode()).isEqualTo(202);
        assertThat(storedEvent(HttpCalls.json(toTeam))).isEqualTo(new NoticePublished("auth-notice-team", 9, "team-a", AT));
        assertThat(broadcast.statusCode()).isEqualTo(202);
        assertThat(storedEvent(HttpCalls.json(broadcast))).isEqualTo(new NoticePublished("auth-broadcast", 9, "everyone", AT));
    }

    @Test
    void aBatchRefusesEachEventOutsideTheTokensScopesAndStoresTheRest() {
        // Given user 101's reads token, and a batch of its own read, another user's read, a post and a bad event
        String user = sign(issuerKey, claims("101", "readmark:publish:reads"));
        String batch = "[" + String.join(",", blogRead("auth-batch-own", 101), blogRead("auth-batch-other", 102), EVENT,
                "{\"type\":\"BlogRead\"}") + "]";

        // When
        HttpResponse<String> response = http.post("/v1/events:batch", "application/json",
                batch.getBytes(StandardCharsets.UTF_8), "Bearer " + user);

        // Then
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode result = HttpCalls.json(response);
        assertThat(result.get("accepted").asInt()).isEqualTo(1);
        assertThat(result.get("rejected").asInt()).isEqualTo(1);
        assertThat(result.get("forbidden").asInt()).isEqualTo(2);
        JsonNode items = result.get("results");
        assertThat(items.get(0).get("status").asText()).isEqualTo("accepted");
        assertThat(storedEvent(items.get(0))).isEqualTo(new BlogRead("auth-batch-own", 101, 501, 7, AT));
        assertForbiddenItem(items.get(1), "auth-batch-other", "BlogRead", "readmark:publish", "userId");
        assertForbiddenItem(items.get(2), "auth-pub-1", "BlogPublished", "readmark:publish:posts", "type");
        assertThat(items.get(3).get("status").asText()).isEqualTo("rejected");
    }

    @Test
    void aServiceTokenWithThePublishScopeStoresTheEvent() {
        // When
        HttpResponse<String> response = post(sign(issuerKey, claims("blog-service", "readmark:publish")));

        // Then
        assertThat(response.statusCode()).isEqualTo(202);
        JsonNode receipt = HttpCalls.json(response);
        ConsumerRecord<String, byte[]> record = KafkaRecords.at(
                receipt.get("topic").asText(), receipt.get("partition").asInt(), receipt.get("offset").asLong());
        assertThat(Topics.EVENT_SERDE.decode(record.value()))
                .isEqualTo(new BlogPublished("auth-pub-1", 501, 7, Instant.parse("2026-03-01T12:00:00Z")));
    }

    @Test
    void healthProbesNeedNoToken() {
        assertThat(HttpCalls.management(api, "/health/live").statusCode()).isEqualTo(200);
        assertThat(HttpCalls.management(api, "/health/ready").statusCode()).isEqualTo(200);
    }

    private static HttpResponse<String> post(String token) {
        return post(token, EVENT);
    }

    private static HttpResponse<String> post(String token, String event) {
        return http.post("/v1/events", "application/json", event.getBytes(StandardCharsets.UTF_8), "Bearer " + token);
    }

    private static String blogRead(String eventId, long userId) {
        return """
                {"type":"BlogRead","eventId":"%s","userId":%d,"blogId":501,"authorId":7,"readAt":"2026-03-01T12:00:00Z"}"""
                .formatted(eventId, userId);
    }

    private static String noticePublished(String eventId, String audience) {
        return """
                {"type":"NoticePublished","eventId":"%s","noticeId":9,"audience":"%s","publishedAt":"2026-03-01T12:00:00Z"}"""
                .formatted(eventId, audience);
    }

    /** The event Kafka holds where a receipt or an accepted batch item says it was stored. */
    private static Event storedEvent(JsonNode receipt) {
        ConsumerRecord<String, byte[]> record = KafkaRecords.at(
                receipt.get("topic").asText(), receipt.get("partition").asInt(), receipt.get("offset").asLong());
        return Topics.EVENT_SERDE.decode(record.value());
    }

    private static void assertForbidden(HttpResponse<String> response, String scope, String field, String eventType) {
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue(
                "Bearer realm=\"readmark\", error=\"insufficient_scope\", scope=\"" + scope + "\"");
        JsonNode problem = HttpCalls.json(response);
        assertThat(problem.get("field").asText()).isEqualTo(field);
        assertThat(problem.get("detail").asText()).contains(eventType, scope);
    }

    private static void assertForbiddenItem(JsonNode item, String eventId, String type, String scope, String field) {
        assertThat(item.get("status").asText()).isEqualTo("forbidden");
        assertThat(item.get("eventId").asText()).isEqualTo(eventId);
        assertThat(item.get("type").asText()).isEqualTo(type);
        assertThat(item.get("scope").asText()).isEqualTo(scope);
        assertThat(item.get("field").asText()).isEqualTo(field);
        assertThat(item.get("detail").asText()).contains(type, scope);
        assertThat(item.has("offset")).isFalse();
    }

    private static JWTClaimsSet.Builder claims(String subject, String scope) {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder().subject(subject).issuer(ISSUER).audience(PRODUCER_AUDIENCE).claim("scope", scope)
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(300)));
    }

    private static String sign(KeyPair key, JWTClaimsSet.Builder claims) {
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims.build());
        try {
            jwt.sign(new RSASSASigner((RSAPrivateKey) key.getPrivate()));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }

    private static KeyPair rsaKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }
}
