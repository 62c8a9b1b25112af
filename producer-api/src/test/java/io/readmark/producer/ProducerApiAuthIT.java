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
import io.readmark.schemas.Topics;

/**
 * The ingest endpoint with bearer JWTs checked against an RSA public key file, on a real broker. The view API has a
 * key pair of its own: neither its key nor its audience opens this API.
 */
class ProducerApiAuthIT {

    private static final String ISSUER = "https://id.readmark.test";
    /** The defaults: the API is started without AUTH_JWT_AUDIENCE. */
    private static final String PRODUCER_AUDIENCE = "readmark-producer";
    private static final String VIEW_AUDIENCE = "readmark-view";
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
                "PRODUCER_API_HOST", "127.0.0.1",
                "PRODUCER_API_PORT", "0",
                "PRODUCER_API_MANAGEMENT_PORT", "0",
                "KAFKA_BOOTSTRAP_SERVERS", KafkaRecords.bootstrap(),
                "READMARK_TOPIC_BLOG_EVENTS", topics.blogEvents().name(),
                "READMARK_TOPIC_FOLLOW_EVENTS", topics.followEvents().name(),
                "READMARK_TOPIC_READ_EVENTS", topics.readEvents().name(),
                "READMARK_AUTH", "jwt",
                "AUTH_JWT_PUBLIC_KEY_FILE", pem.toString(),
                "AUTH_JWT_ISSUER", ISSUER), Map.of())));
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
                "Bearer realm=\"readmark\", error=\"insufficient_scope\", scope=\"readmark:publish\"");
        assertThat(HttpCalls.json(response).get("title").asText()).isEqualTo("Forbidden");
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
        return http.post("/v1/events", "application/json", EVENT.getBytes(StandardCharsets.UTF_8), "Bearer " + token);
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
