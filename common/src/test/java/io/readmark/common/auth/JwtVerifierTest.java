package io.readmark.common.auth;

import static io.readmark.common.auth.TestKeys.CLOCK;
import static io.readmark.common.auth.TestKeys.EC_P256;
import static io.readmark.common.auth.TestKeys.EC_P384;
import static io.readmark.common.auth.TestKeys.NOW;
import static io.readmark.common.auth.TestKeys.RSA;
import static io.readmark.common.auth.TestKeys.RSA_OTHER;
import static io.readmark.common.auth.TestKeys.claims;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.interfaces.RSAPrivateKey;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;

import io.readmark.common.config.Settings;

class JwtVerifierTest {

    private static final Duration SKEW = Duration.ofSeconds(60);
    /** Spellings of user 101 that {@code Long.parseLong} would take but a path never does. */
    static final List<String> NON_CANONICAL_101 = List.of("0101", "0000000000000000101", "00000000000000000101", "+101",
            "\u0661\u0660\u0661", "\uFF11\uFF10\uFF11", " 101", "101 ");

    private static JwtVerifier verifier(VerificationKeys keys) {
        return new JwtVerifier(AuthConfig.jwt(keys, null, TestKeys.AUDIENCE, SKEW), CLOCK);
    }

    private static JwtVerifier hs256Verifier() {
        return verifier(VerificationKeys.hs256Secret(TestKeys.SECRET));
    }

    private static void assertRefused(JwtVerifier verifier, String token, String reason) {
        assertThatThrownBy(() -> verifier.verify(token))
                .isInstanceOf(InvalidTokenException.class)
                .hasMessageContaining(reason);
    }

    // ---- key sources -------------------------------------------------------------------------------------------

    @Test
    void anHs256TokenSignedWithTheSecretGivesItsSubject() throws Exception {
        // Given
        String token = TestKeys.hs256(claims("101").build());

        // When
        Principal principal = hs256Verifier().verify(token);

        // Then
        assertThat(principal.subject()).isEqualTo("101");
        assertThat(principal.userId()).hasValue(101);
        assertThat(principal.scopes()).isEmpty();
    }

    @Test
    void rsaTokensVerifyAgainstAPemPublicKeyWithEveryRsaAlgorithm() throws Exception {
        // Given
        JwtVerifier verifier = verifier(VerificationKeys.pemPublicKey(TestKeys.pem(RSA.getPublic())));
        RSASSASigner signer = new RSASSASigner((RSAPrivateKey) RSA.getPrivate());

        // When / Then
        for (JWSAlgorithm algorithm : List.of(JWSAlgorithm.RS256, JWSAlgorithm.RS512, JWSAlgorithm.PS256, JWSAlgorithm.PS384)) {
            String token = TestKeys.sign(algorithm, null, signer, claims("svc-" + algorithm).build());
            assertThat(verifier.verify(token).subject()).isEqualTo("svc-" + algorithm);
        }
    }

    @Test
    void ecTokensVerifyWithTheAlgorithmOfTheKeysCurveOnly() throws Exception {
        // Given
        JwtVerifier p256 = verifier(VerificationKeys.pemPublicKey(TestKeys.pem(EC_P256.getPublic())));
        JwtVerifier p384 = verifier(VerificationKeys.pemPublicKey(TestKeys.pem(EC_P384.getPublic())));

        // When / Then
        assertThat(p256.verify(TestKeys.es(JWSAlgorithm.ES256, EC_P256, null, claims("1").build())).subject()).isEqualTo("1");
        assertThat(p384.verify(TestKeys.es(JWSAlgorithm.ES384, EC_P384, null, claims("2").build())).subject()).isEqualTo("2");
        assertRefused(p384, TestKeys.es(JWSAlgorithm.ES256, EC_P256, null, claims("3").build()), "alg is not accepted; accepted: ES384");
    }

    @Test
    void aJwkSetChoosesTheKeyByKid() throws Exception {
        // Given RSA key rsa-1 and EC key ec-1
        JwtVerifier verifier = verifier(VerificationKeys.jwkSet(TestKeys.jwks()));

        // When / Then
        assertThat(verifier.verify(TestKeys.rs256(RSA, "rsa-1", claims("a").build())).subject()).isEqualTo("a");
        assertThat(verifier.verify(TestKeys.es(JWSAlgorithm.ES256, EC_P256, "ec-1", claims("b").build())).subject()).isEqualTo("b");
        assertThat(verifier.verify(TestKeys.rs256(RSA, null, claims("c").build())).subject()).isEqualTo("c");
        assertRefused(verifier, TestKeys.rs256(RSA, "rsa-2", claims("d").build()), "no verification key has the token's kid");
        assertRefused(verifier, TestKeys.rs256(RSA_OTHER, "rsa-1", claims("e").build()), "signature does not verify");
        assertRefused(verifier, TestKeys.es(JWSAlgorithm.ES256, EC_P256, "rsa-1", claims("f").build()), "no verification key has the token's kid");
    }

    // ---- signatures and algorithms ------------------------------------------------------------------------------

    @Test
    void aTamperedPayloadIsRefused() {
        // Given a valid token whose payload is swapped for one naming another subject
        String[] parts = TestKeys.hs256(claims("101").build()).split("\\.");
        String otherPayload = Base64.getUrlEncoder().withoutPadding()
                .encodeToString(claims("102").build().toString().getBytes(StandardCharsets.UTF_8));

        // When / Then
        assertRefused(hs256Verifier(), parts[0] + "." + otherPayload + "." + parts[2], "signature does not verify");
    }

    @Test
    void anHs256TokenSignedWithTheRsaPublicKeyIsRefused() {
        // Given the classic algorithm confusion: the attacker knows the public key and uses it as an HMAC secret
        JwtVerifier verifier = verifier(VerificationKeys.pemPublicKey(TestKeys.pem(RSA.getPublic())));
        JWTClaimsSet claims = claims("1").claim("scope", "readmark:read-any").build();
        String withDer = TestKeys.sign(JWSAlgorithm.HS256, null, TestKeys.macSigner(RSA.getPublic().getEncoded()), claims);
        String withPem = TestKeys.sign(JWSAlgorithm.HS256, null,
                TestKeys.macSigner(TestKeys.pem(RSA.getPublic()).getBytes(StandardCharsets.US_ASCII)), claims);

        // When / Then
        assertRefused(verifier, withDer, "alg is not accepted");
        assertRefused(verifier, withPem, "alg is not accepted");
    }

    @Test
    void otherAlgorithmsThanTheKeysAreRefused() {
        // Given
        JwtVerifier hmac = hs256Verifier();
        JwtVerifier jwks = verifier(VerificationKeys.jwkSet(TestKeys.jwks()));

        // When / Then
        assertRefused(hmac, TestKeys.rs256(RSA, null, claims("1").build()), "alg is not accepted; accepted: HS256");
        assertRefused(hmac, TestKeys.sign(JWSAlgorithm.HS512, null,
                TestKeys.macSigner(new byte[64]), claims("1").build()), "alg is not accepted");
        assertRefused(jwks, TestKeys.hs256(claims("1").build()), "alg is not accepted");
    }

    @Test
    void unsignedTokensAreRefused() {
        // Given alg none, as nimbus writes it and as an attacker would (a signature part left in)
        String plain = new PlainJWT(claims("1").build()).serialize();
        String header = Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8));
        String[] signed = TestKeys.hs256(claims("1").build()).split("\\.");

        // When / Then
        assertRefused(hs256Verifier(), plain, "alg none");
        assertRefused(hs256Verifier(), header + "." + signed[1] + "." + signed[2], "not a well-formed JWT");
    }

    @Test
    void malformedAndOversizedTokensAreRefused() {
        // When / Then
        for (String token : List.of("abc", "a.b.c", "...", "..", "e30.e30.e30", "eyJhbGciOiJIUzI1NiJ9..", "%%%.%%%.%%%")) {
            assertThatThrownBy(() -> hs256Verifier().verify(token)).as(token).isInstanceOf(InvalidTokenException.class);
        }
        assertRefused(hs256Verifier(), "a".repeat(JwtVerifier.MAX_TOKEN_CHARS + 1), "longer than");
    }

    // ---- time claims ---------------------------------------------------------------------------------------------

    @Test
    void aTokenWithoutExpiryIsRefused() {
        // Given
        String token = TestKeys.hs256(new JWTClaimsSet.Builder().subject("1").build());

        // When / Then
        assertRefused(hs256Verifier(), token, "no exp");
    }

    @Test
    void anExpiredTokenIsRefusedOnceTheSkewHasPassed() throws Exception {
        // Given
        String withinSkew = TestKeys.hs256(claims("1").expirationTime(Date.from(NOW.minusSeconds(59))).build());
        String expired = TestKeys.hs256(claims("1").expirationTime(Date.from(NOW.minusSeconds(61))).build());

        // When / Then
        assertThat(hs256Verifier().verify(withinSkew).subject()).isEqualTo("1");
        assertRefused(hs256Verifier(), expired, "the token has expired");
    }

    @Test
    void thePrincipalIsValidUntilTheVerifierRefusesItsToken() throws Exception {
        // Given
        String token = TestKeys.hs256(claims("1").expirationTime(Date.from(NOW.plusSeconds(30))).build());

        // When
        Principal principal = hs256Verifier().verify(token);

        // Then: exp plus the skew, the first instant at which the same token is refused
        assertThat(principal.validUntil()).isEqualTo(NOW.plusSeconds(30).plus(SKEW));
        JwtVerifier atValidUntil = new JwtVerifier(AuthConfig.jwt(VerificationKeys.hs256Secret(TestKeys.SECRET), null,
                TestKeys.AUDIENCE, SKEW), Clock.fixed(principal.validUntil(), ZoneOffset.UTC));
        JwtVerifier justBefore = new JwtVerifier(AuthConfig.jwt(VerificationKeys.hs256Secret(TestKeys.SECRET), null,
                TestKeys.AUDIENCE, SKEW), Clock.fixed(principal.validUntil().minusMillis(1), ZoneOffset.UTC));
        assertRefused(atValidUntil, token, "the token has expired");
        assertThat(justBefore.verify(token).subject()).isEqualTo("1");
    }

    @Test
    void aTokenNotValidYetIsRefusedBeyondTheSkew() throws Exception {
        // Given
        String withinSkew = TestKeys.hs256(claims("1").notBeforeTime(Date.from(NOW.plusSeconds(59))).build());
        String early = TestKeys.hs256(claims("1").notBeforeTime(Date.from(NOW.plusSeconds(120))).build());
        String issuedLater = TestKeys.hs256(claims("1").issueTime(Date.from(NOW.plusSeconds(120))).build());

        // When / Then
        assertThat(hs256Verifier().verify(withinSkew).subject()).isEqualTo("1");
        assertRefused(hs256Verifier(), early, "not valid yet");
        assertRefused(hs256Verifier(), issuedLater, "issued in the future");
    }

    @Test
    void aTimeClaimOfTheWrongTypeIsRefused() {
        // Given
        String token = TestKeys.hs256(claims("1").claim("exp", "tomorrow").build());

        // When / Then
        assertRefused(hs256Verifier(), token, "claims are malformed");
    }

    // ---- issuer and audience --------------------------------------------------------------------------------------

    @Test
    void theConfiguredIssuerIsRequired() throws Exception {
        // Given
        JwtVerifier verifier = new JwtVerifier(AuthConfig.jwt(VerificationKeys.hs256Secret(TestKeys.SECRET),
                "https://id.example", TestKeys.AUDIENCE, SKEW), CLOCK);

        // When / Then
        assertThat(verifier.verify(TestKeys.hs256(claims("1").issuer("https://id.example").build())).subject()).isEqualTo("1");
        assertRefused(verifier, TestKeys.hs256(claims("1").issuer("https://evil.example").build()), "issuer (iss) is not accepted");
        assertRefused(verifier, TestKeys.hs256(claims("1").build()), "issuer (iss) is not accepted");
    }

    @Test
    void withoutAConfiguredIssuerAnyIssuerIsAccepted() throws Exception {
        assertThat(hs256Verifier().verify(TestKeys.hs256(claims("1").issuer("https://other.example").build())).subject()).isEqualTo("1");
        assertThat(hs256Verifier().verify(TestKeys.hs256(claims("1").build())).subject()).isEqualTo("1");
    }

    @Test
    void everyTokenMustNameThisApisAudience() throws Exception {
        // Given
        JwtVerifier verifier = hs256Verifier();

        // When / Then
        assertThat(verifier.verify(TestKeys.hs256(claims("1").audience(List.of("other", TestKeys.AUDIENCE)).build())).subject()).isEqualTo("1");
        assertRefused(verifier, TestKeys.hs256(claims("1").audience((String) null).build()), "no aud (audience) claim");
        assertRefused(verifier, TestKeys.hs256(claims("1").audience(List.of()).build()), "no aud (audience) claim");
        assertRefused(verifier, TestKeys.hs256(claims("1").audience("other").build()), "audience (aud) does not include this API");
        assertRefused(verifier, TestKeys.hs256(claims("1").audience(TestKeys.AUDIENCE.toUpperCase()).build()), "audience (aud)");
        assertRefused(verifier, TestKeys.hs256(claims("1").audience(TestKeys.AUDIENCE + " ").build()), "audience (aud)");
        assertThatThrownBy(() -> verifier.verify(TestKeys.hs256(claims("1").claim("aud", 5).build())))
                .isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void aTokenForTheViewApiIsRefusedByTheProducerApiEvenWithTheSameKey() throws Exception {
        // Given both APIs configured as they start, from the same settings (one secret: the worst case)
        Settings settings = Settings.of(Map.of(), Map.of(AuthConfig.HS256_SECRET, TestKeys.SECRET));
        JwtVerifier producer = new JwtVerifier(AuthConfig.from(settings, AuthConfig.PRODUCER_API_AUDIENCE), CLOCK);
        JwtVerifier view = new JwtVerifier(AuthConfig.from(settings, AuthConfig.VIEW_API_AUDIENCE), CLOCK);
        String forView = TestKeys.hs256(claims("svc").audience(AuthConfig.VIEW_API_AUDIENCE).claim("scope", Scopes.PUBLISH).build());
        String forProducer = TestKeys.hs256(claims("svc").audience(AuthConfig.PRODUCER_API_AUDIENCE).claim("scope", Scopes.READ_ANY).build());

        // When / Then
        assertThat(view.verify(forView).hasScope(Scopes.PUBLISH)).isTrue();
        assertRefused(producer, forView, "audience (aud) does not include this API");
        assertThat(producer.verify(forProducer).hasScope(Scopes.READ_ANY)).isTrue();
        assertRefused(view, forProducer, "audience (aud) does not include this API");
    }

    @Test
    void aTokenSignedWithTheOtherApisKeyIsRefusedWhateverItsAudience() throws Exception {
        // Given each API verifying with the public key of its own pair
        JwtVerifier producer = verifier(VerificationKeys.pemPublicKey(TestKeys.pem(EC_P256.getPublic())));
        JWTClaimsSet forProducer = claims("svc").claim("scope", Scopes.PUBLISH).build();

        // When / Then
        assertThat(producer.verify(TestKeys.es(JWSAlgorithm.ES256, EC_P256, null, forProducer)).subject()).isEqualTo("svc");
        assertRefused(producer, TestKeys.rs256(RSA, null, forProducer), "alg is not accepted");
        assertRefused(producer, TestKeys.es(JWSAlgorithm.ES256, TestKeys.EC_P256_OTHER, null, forProducer), "signature does not verify");
    }

    // ---- scopes ----------------------------------------------------------------------------------------------

    @Test
    void scopesComeFromAScopeStringAndFromScpAsArrayOrString() throws Exception {
        // When
        Principal fromScope = hs256Verifier().verify(TestKeys.hs256(claims("svc").claim("scope", "readmark:publish  openid").build()));
        Principal fromArray = hs256Verifier().verify(TestKeys.hs256(claims("svc").claim("scp", List.of("readmark:read-any", "x")).build()));
        Principal fromScpString = hs256Verifier().verify(TestKeys.hs256(claims("svc").claim("scp", "readmark:publish").build()));

        // Then
        assertThat(fromScope.scopes()).containsExactlyInAnyOrder("readmark:publish", "openid");
        assertThat(fromArray.scopes()).containsExactlyInAnyOrder("readmark:read-any", "x");
        assertThat(fromScpString.hasScope(Scopes.PUBLISH)).isTrue();
        assertThat(fromScope.userId()).isEmpty();
    }

    @Test
    void aScopeClaimOfTheWrongTypeIsRefused() {
        // Given
        String token = TestKeys.hs256(claims("svc").claim("scp", List.of(1, 2)).build());

        // When / Then
        assertRefused(hs256Verifier(), token, "scope or scp claim");
    }

    @Test
    void onlyACanonicalPositiveDecimalSubjectIsAUserId() {
        assertThat(new Principal("9223372036854775807", Set.of()).userId()).hasValue(Long.MAX_VALUE);
        assertThat(new Principal("101", Set.of()).userId()).hasValue(101);
        for (String subject : NON_CANONICAL_101) {
            assertThat(new Principal(subject, Set.of()).userId()).as(subject).isEmpty();
        }
        for (String subject : List.of("0", "-1", "1e3", "9223372036854775808", "00000000000000000000", "abc", "")) {
            assertThat(new Principal(subject, Set.of()).userId()).as(subject).isEmpty();
        }
        assertThat(new Principal(null, Set.of()).userId()).isEmpty();
    }

    @Test
    void aVerifiedTokenWhoseSubjectSpells101OtherwiseHasNoUserId() throws Exception {
        for (String subject : NON_CANONICAL_101) {
            // When
            Principal principal = hs256Verifier().verify(TestKeys.hs256(claims(subject).build()));

            // Then
            assertThat(principal.subject()).isEqualTo(subject);
            assertThat(principal.userId()).as(subject).isEmpty();
        }
    }
}
