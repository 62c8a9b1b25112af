package io.readmark.common.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.util.Base64URL;

import io.readmark.common.config.Settings;

class AuthConfigTest {

    @TempDir
    Path dir;

    private static AuthConfig from(Map<String, String> environment) {
        return AuthConfig.from(Settings.of(Map.of(), environment), AuthConfig.PRODUCER_API_AUDIENCE);
    }

    private static void assertStartupError(Map<String, String> environment, String message) {
        assertThatThrownBy(() -> from(environment)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }

    private String file(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content).toString();
    }

    @Test
    void jwtIsTheDefaultAndNeedsAKeySource() {
        assertStartupError(Map.of(), "READMARK_AUTH=jwt needs one of AUTH_JWT_HS256_SECRET, AUTH_JWT_PUBLIC_KEY_FILE, "
                + "AUTH_JWKS_FILE (or READMARK_AUTH=off for local runs)");
    }

    @Test
    void offNeedsNothingElse() {
        assertThat(from(Map.of("READMARK_AUTH", "OFF"))).isEqualTo(AuthConfig.off());
        assertThat(AuthConfig.off().enabled()).isFalse();
    }

    @Test
    void anHs256SecretWithIssuerAudienceAndSkew() {
        // When
        AuthConfig config = from(Map.of("AUTH_JWT_HS256_SECRET", TestKeys.SECRET, "AUTH_JWT_ISSUER", "https://id.example",
                "AUTH_JWT_AUDIENCE", "readmark", "AUTH_CLOCK_SKEW", "PT5S"));

        // Then
        assertThat(config.enabled()).isTrue();
        assertThat(config.keys().algorithms()).extracting(Object::toString).containsExactly("HS256");
        assertThat(config.issuer()).isEqualTo("https://id.example");
        assertThat(config.audience()).isEqualTo("readmark");
        assertThat(config.clockSkew()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void theSkewDefaultsToOneMinuteTheIssuerToAnyAndTheAudienceToTheApis() {
        // Given
        Settings settings = Settings.of(Map.of(), Map.of("AUTH_JWT_HS256_SECRET", TestKeys.SECRET));

        // When
        AuthConfig producer = AuthConfig.from(settings, AuthConfig.PRODUCER_API_AUDIENCE);
        AuthConfig view = AuthConfig.from(settings, AuthConfig.VIEW_API_AUDIENCE);

        // Then
        assertThat(producer.clockSkew()).isEqualTo(Duration.ofSeconds(60));
        assertThat(producer.issuer()).isNull();
        assertThat(producer.audience()).isEqualTo("readmark-producer");
        assertThat(view.audience()).isEqualTo("readmark-view");
    }

    @Test
    void anAudienceIsAlwaysRequiredWhenAuthenticating() {
        VerificationKeys keys = VerificationKeys.hs256Secret(TestKeys.SECRET);
        assertThatThrownBy(() -> AuthConfig.jwt(keys, null, null, Duration.ZERO)).hasMessageContaining("AUTH_JWT_AUDIENCE must not be empty");
        assertThatThrownBy(() -> AuthConfig.jwt(keys, null, " ", Duration.ZERO)).hasMessageContaining("AUTH_JWT_AUDIENCE must not be empty");
        assertThatThrownBy(() -> AuthConfig.jwt(keys, "", "a", Duration.ZERO)).hasMessageContaining("AUTH_JWT_ISSUER must not be blank");
        // an empty setting is an unset one: the API's own audience, never none
        assertThat(from(Map.of("AUTH_JWT_HS256_SECRET", TestKeys.SECRET, "AUTH_JWT_AUDIENCE", " ")).audience()).isEqualTo("readmark-producer");
    }

    @Test
    void pemAndJwksFilesAreLoadedAtStartup() throws IOException {
        // When
        AuthConfig rsa = from(Map.of("AUTH_JWT_PUBLIC_KEY_FILE", file("rsa.pem", TestKeys.pem(TestKeys.RSA.getPublic()))));
        AuthConfig ec = from(Map.of("AUTH_JWT_PUBLIC_KEY_FILE", file("ec.pem", TestKeys.pem(TestKeys.EC_P384.getPublic()))));
        AuthConfig jwks = from(Map.of("AUTH_JWKS_FILE", file("jwks.json", TestKeys.jwks())));

        // Then
        assertThat(rsa.keys().algorithms()).extracting(Object::toString)
                .containsExactlyInAnyOrder("RS256", "RS384", "RS512", "PS256", "PS384", "PS512");
        assertThat(ec.keys().algorithms()).extracting(Object::toString).containsExactly("ES384");
        assertThat(jwks.keys().algorithms()).extracting(Object::toString).contains("RS256", "ES256").doesNotContain("ES384", "HS256");
    }

    @Test
    void badSettingsFailNamingTheSetting() throws Exception {
        String pem = file("rsa.pem", TestKeys.pem(TestKeys.RSA.getPublic()));
        KeyPairGenerator small = KeyPairGenerator.getInstance("RSA");
        small.initialize(1024);
        String octJwks = new JWKSet(new OctetSequenceKey.Builder(Base64URL.encode(TestKeys.SECRET)).keyID("k").build()).toString(false);

        assertStartupError(Map.of("READMARK_AUTH", "basic"), "READMARK_AUTH must be jwt or off, was 'basic'");
        assertStartupError(Map.of("AUTH_JWT_HS256_SECRET", "too-short"), "AUTH_JWT_HS256_SECRET must be at least 32 bytes, was 9");
        assertThatThrownBy(() -> from(Map.of("AUTH_JWT_HS256_SECRET", "too-short"))).hasMessageNotContaining("too-short");
        assertStartupError(Map.of("AUTH_JWT_HS256_SECRET", TestKeys.SECRET, "AUTH_JWT_PUBLIC_KEY_FILE", pem),
                "exactly one key source, but AUTH_JWT_HS256_SECRET and AUTH_JWT_PUBLIC_KEY_FILE are set");
        assertStartupError(Map.of("AUTH_JWT_PUBLIC_KEY_FILE", dir.resolve("missing.pem").toString()), "AUTH_JWT_PUBLIC_KEY_FILE: cannot read");
        assertStartupError(Map.of("AUTH_JWT_PUBLIC_KEY_FILE", file("cert.pem", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")),
                "AUTH_JWT_PUBLIC_KEY_FILE must hold a PEM '-----BEGIN PUBLIC KEY-----' block");
        assertStartupError(Map.of("AUTH_JWT_PUBLIC_KEY_FILE", file("junk.pem", "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")),
                "AUTH_JWT_PUBLIC_KEY_FILE holds a PUBLIC KEY that is neither an RSA nor an EC key");
        assertStartupError(Map.of("AUTH_JWT_PUBLIC_KEY_FILE", file("small.pem", TestKeys.pem(small.generateKeyPair().getPublic()))),
                "AUTH_JWT_PUBLIC_KEY_FILE is an RSA key of 1024 bits");
        assertStartupError(Map.of("AUTH_JWKS_FILE", file("bad.json", "{\"keys\": 5}")), "AUTH_JWKS_FILE is not a JWK set");
        assertStartupError(Map.of("AUTH_JWKS_FILE", file("empty.json", "{\"keys\": []}")), "AUTH_JWKS_FILE holds no signature key");
        assertStartupError(Map.of("AUTH_JWKS_FILE", file("oct.json", octJwks)), "AUTH_JWKS_FILE key 'k' has key type oct");
        assertStartupError(Map.of("AUTH_JWT_HS256_SECRET", TestKeys.SECRET, "AUTH_CLOCK_SKEW", "-PT1S"), "AUTH_CLOCK_SKEW must not be negative");
        assertStartupError(Map.of("AUTH_JWT_HS256_SECRET", TestKeys.SECRET, "AUTH_CLOCK_SKEW", "soon"), "AUTH_CLOCK_SKEW must be a duration");
    }

    @Test
    void aJwkThatPinsAnAlgorithmAcceptsOnlyThatOne() throws IOException {
        // Given
        String jwks = new JWKSet(new RSAKey.Builder((RSAPublicKey) TestKeys.RSA.getPublic())
                .keyID("r").algorithm(JWSAlgorithm.PS256).build()).toString();

        // When
        AuthConfig config = from(Map.of("AUTH_JWKS_FILE", file("pinned.json", jwks)));

        // Then
        assertThat(config.keys().algorithms()).extracting(Object::toString).containsExactly("PS256");
    }
}
