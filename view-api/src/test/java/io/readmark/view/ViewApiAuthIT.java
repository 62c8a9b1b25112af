package io.readmark.view;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The view API with bearer JWTs checked against a JWK set file, over a real Redis: a user reads only their own
 * unread state, a service with {@code readmark:read-any} reads anyone's, probes need no token. The producer API has
 * a key pair of its own: neither its key nor its audience opens this API.
 */
class ViewApiAuthIT {

    /** The default: the API is started without AUTH_JWT_AUDIENCE. */
    private static final String AUDIENCE = "readmark-view";
    private static final String PRODUCER_AUDIENCE = "readmark-producer";

    @TempDir
    static Path keys;

    private static KeyPair current;
    private static KeyPair next;
    /** The producer API's pair, which signs the tokens the producer API accepts. */
    private static KeyPair producerKey;
    @AutoClose
    private static ViewApiFixture fixture;

    @BeforeAll
    static void start() throws Exception {
        // Two keys, as during a key rotation: tokens name theirs by kid.
        current = ecKeyPair();
        next = ecKeyPair();
        producerKey = ecKeyPair();
        Path jwks = Files.writeString(keys.resolve("jwks.json"), new JWKSet(List.of(
                new ECKey.Builder(Curve.P_256, (ECPublicKey) current.getPublic()).keyID("current").build(),
                new ECKey.Builder(Curve.P_256, (ECPublicKey) next.getPublic()).keyID("next").build())).toString());
        fixture = ViewApiFixture.onSharedRedis(Map.of(
                "READMARK_AUTH", "jwt",
                "AUTH_JWKS_FILE", jwks.toString()));
        fixture.deliver(101, 7, 1001, 1002);
        fixture.deliver(102, 7, 1001);
    }

    @Test
    void aUserReadsTheirOwnUnreadState() {
        // When
        HttpResponse<String> counts = fixture.get("/v1/users/101/unread", bearer(next, "next", claims("101")));
        HttpResponse<String> page = fixture.get("/v1/users/101/unread/7?limit=1", bearer(current, "current", claims("101")));

        // Then
        assertThat(counts.statusCode()).isEqualTo(200);
        assertThat(ViewApiFixture.json(counts).get("total").asLong()).isEqualTo(2);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(ViewApiFixture.json(page).get("items").get(0).get("blogId").asLong()).isEqualTo(1002);
    }

    @Test
    void aUserMayNotReadAnotherUsersState() {
        // When
        HttpResponse<String> response = fixture.get("/v1/users/102/unread", bearer(current, "current", claims("101")));

        // Then
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(ViewApiFixture.json(response).get("detail").asText()).startsWith("a user token may read only its own unread state");
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue(
                "Bearer realm=\"readmark\", error=\"insufficient_scope\", scope=\"readmark:read-any\"");
    }

    @Test
    void aServiceWithReadAnyReadsEveryUser() {
        // Given
        String token = bearer(current, "current", claims("notification-service").claim("scp", List.of("readmark:read-any")));

        // When
        HttpResponse<String> first = fixture.get("/v1/users/101/unread", token);
        HttpResponse<String> second = fixture.get("/v1/users/102/unread/7", token);

        // Then
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(ViewApiFixture.json(first).get("total").asLong()).isEqualTo(2);
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(ViewApiFixture.json(second).get("items")).hasSize(1);
    }

    @Test
    void withoutAValidTokenTheAnswerIs401() {
        // When
        HttpResponse<String> none = fixture.get("/v1/users/101/unread", null);
        HttpResponse<String> wrongAudience = fixture.get("/v1/users/101/unread",
                bearer(current, "current", claims("101").audience("another-api")));
        HttpResponse<String> wrongKid = fixture.get("/v1/users/101/unread", bearer(current, "next", claims("101")));

        // Then
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"readmark\"");
        assertThat(wrongAudience.statusCode()).isEqualTo(401);
        assertThat(wrongAudience.headers().firstValue("WWW-Authenticate").orElseThrow()).contains("error=\"invalid_token\"", "audience");
        assertThat(wrongKid.statusCode()).isEqualTo(401);
        assertThat(ViewApiFixture.json(wrongKid).get("detail").asText()).isEqualTo("the token's signature does not verify");
    }

    @Test
    void aTokenForTheProducerApiIsRefusedWhicheverKeySignedIt() {
        // When: a token of this API's audience signed with the producer's key (under this API's kid, and under none),
        // and one of the producer's audience signed with this API's key
        HttpResponse<String> producerKeyWithKid = fixture.get("/v1/users/101/unread", bearer(producerKey, "current", claims("101")));
        HttpResponse<String> producerKeyWithoutKid = fixture.get("/v1/users/101/unread", bearer(producerKey, null, claims("101")));
        HttpResponse<String> forProducer = fixture.get("/v1/users/101/unread",
                bearer(current, "current", claims("101").audience(PRODUCER_AUDIENCE)));

        // Then
        assertThat(producerKeyWithKid.statusCode()).isEqualTo(401);
        assertThat(ViewApiFixture.json(producerKeyWithKid).get("detail").asText()).isEqualTo("the token's signature does not verify");
        assertThat(producerKeyWithoutKid.statusCode()).isEqualTo(401);
        assertThat(ViewApiFixture.json(producerKeyWithoutKid).get("detail").asText()).isEqualTo("the token's signature does not verify");
        assertThat(forProducer.statusCode()).isEqualTo(401);
        assertThat(forProducer.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"readmark\", error=\"invalid_token\", "
                + "error_description=\"the token's audience (aud) does not include this API\"");
    }

    @Test
    void aSubjectSpellingAUserIdOtherwiseReadsNobody() {
        for (String subject : List.of("0101", "0000000000000000101", "+101", "\u0661\u0660\u0661", "\uFF11\uFF10\uFF11")) {
            // When
            HttpResponse<String> response = fixture.get("/v1/users/101/unread", bearer(current, "current", claims(subject)));

            // Then
            assertThat(response.statusCode()).as(subject).isEqualTo(403);
        }
    }

    @Test
    void aMalformedUserIdIs400OnceAuthenticated() {
        // When
        HttpResponse<String> response = fixture.get("/v1/users/abc/unread", bearer(current, "current", claims("101")));

        // Then
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(ViewApiFixture.json(response).get("field").asText()).isEqualTo("userId");
    }

    @Test
    void healthProbesNeedNoToken() {
        // Health is on the management port, which is not the public one: probes need no token.
        assertThat(fixture.management("/health/live").statusCode()).isEqualTo(200);
        assertThat(fixture.management("/health/ready").statusCode()).isEqualTo(200);
    }

    private static JWTClaimsSet.Builder claims(String subject) {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder().subject(subject).audience(AUDIENCE)
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(300)));
    }

    private static String bearer(KeyPair key, String kid, JWTClaimsSet.Builder claims) {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID(kid).build(), claims.build());
        try {
            jwt.sign(new ECDSASigner((ECPrivateKey) key.getPrivate()));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return "Bearer " + jwt.serialize();
    }

    private static KeyPair ecKeyPair() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }
}
