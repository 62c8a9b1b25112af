package io.readmark.cli;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.readmark.common.auth.InvalidTokenException;
import io.readmark.common.auth.JwtVerifier;
import io.readmark.common.config.Settings;
import io.readmark.producer.ProducerApiConfig;
import io.readmark.view.ViewApiConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenCommandTest {

    private static final String SECRET = "0123456789abcdef0123456789abcdef";
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

    @TempDir
    Path dir;

    private static Settings settings(Map<String, String> environment) {
        return Settings.of(Map.of(), environment);
    }

    /** PEM as {@code openssl genpkey} and {@code openssl pkey -pubout} write it: PKCS#8 and SubjectPublicKeyInfo. */
    private Path pem(String name, String type, Key key) throws IOException {
        return Files.writeString(dir.resolve(name), "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded())
                + "\n-----END " + type + "-----\n");
    }

    private static KeyPair ec(String curve) throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec(curve));
        return generator.generateKeyPair();
    }

    private static KeyPair rsa(int bits) throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(bits);
        return generator.generateKeyPair();
    }

    @Test
    void shouldSignAnHs256TokenForTheNamedApisAudience() throws Exception {
        Settings settings = Settings.of(Map.of("TOKEN_API", "view", "TOKEN_SUBJECT", "101", "TOKEN_TTL", "PT30M"), Map.of(
                "AUTH_JWT_HS256_SECRET", SECRET, "AUTH_JWT_ISSUER", "https://blog.example"));

        SignedJWT jwt = SignedJWT.parse(TokenCommand.sign(settings, NOW));

        assertThat(jwt.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.HS256);
        assertThat(jwt.verify(new MACVerifier(SECRET))).isTrue();
        JWTClaimsSet claims = jwt.getJWTClaimsSet();
        assertThat(claims.getSubject()).isEqualTo("101");
        assertThat(claims.getIssuer()).isEqualTo("https://blog.example");
        assertThat(claims.getAudience()).isEqualTo(List.of("readmark-view"));
        assertThat(claims.getIssueTime().toInstant()).isEqualTo(NOW);
        assertThat(claims.getExpirationTime().toInstant()).isEqualTo(NOW.plus(Duration.ofMinutes(30)));
    }

    @Test
    void shouldMintEveryPublishingScopeForTheProducerAndRefuseAReadmarkScopeItDoesNotKnow() throws Exception {
        String scopes = "readmark:publish:reads readmark:publish:follows readmark:publish:posts readmark:publish:notices "
                + "readmark:publish:broadcast openid";

        SignedJWT jwt = SignedJWT.parse(TokenCommand.sign(settings(Map.of("TOKEN_API", "producer", "TOKEN_SUBJECT", "101",
                "TOKEN_SCOPE", scopes, "AUTH_JWT_HS256_SECRET", SECRET)), NOW));

        assertThat(jwt.getJWTClaimsSet().getStringClaim("scope")).isEqualTo(scopes);
        assertThatThrownBy(() -> TokenCommand.sign(settings(Map.of("TOKEN_API", "producer", "TOKEN_SUBJECT", "101",
                "TOKEN_SCOPE", "readmark:publish:read", "AUTH_JWT_HS256_SECRET", SECRET)), NOW))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TOKEN_SCOPE").hasMessageContaining("'readmark:publish:read'")
                .hasMessageContaining("readmark:publish:reads");
        assertThatThrownBy(() -> TokenCommand.sign(settings(Map.of("TOKEN_API", "view", "TOKEN_SUBJECT", "svc",
                "TOKEN_SCOPE", "readmark:publish", "AUTH_JWT_HS256_SECRET", SECRET)), NOW))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("readmark:read-any");
    }

    @Test
    void shouldSignWithAnEcPrivateKeyWithTheAlgorithmOfItsCurve() throws Exception {
        KeyPair p256 = ec("secp256r1");
        KeyPair p384 = ec("secp384r1");

        SignedJWT es256 = SignedJWT.parse(TokenCommand.sign(settings(Map.of("TOKEN_API", "producer", "TOKEN_SUBJECT", "blog-service",
                "TOKEN_SCOPE", "readmark:publish", "TOKEN_PRIVATE_KEY_FILE", pem("p256.pem", "PRIVATE KEY", p256.getPrivate()).toString())), NOW));
        SignedJWT es384 = SignedJWT.parse(TokenCommand.sign(settings(Map.of("TOKEN_API", "producer", "TOKEN_SUBJECT", "s",
                "TOKEN_PRIVATE_KEY_FILE", pem("p384.pem", "PRIVATE KEY", p384.getPrivate()).toString())), NOW));

        assertThat(es256.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.ES256);
        assertThat(es256.verify(new ECDSAVerifier((ECPublicKey) p256.getPublic()))).isTrue();
        assertThat(es256.getJWTClaimsSet().getAudience()).isEqualTo(List.of("readmark-producer"));
        assertThat(es256.getJWTClaimsSet().getStringClaim("scope")).isEqualTo("readmark:publish");
        assertThat(es256.getJWTClaimsSet().getIssuer()).as("no AUTH_JWT_ISSUER set").isNull();
        assertThat(es384.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.ES384);
        assertThat(es384.verify(new ECDSAVerifier((ECPublicKey) p384.getPublic()))).isTrue();
    }

    @Test
    void shouldSignWithAnRsaPrivateKeyAsRs256() throws Exception {
        KeyPair pair = rsa(2048);

        SignedJWT jwt = SignedJWT.parse(TokenCommand.sign(settings(Map.of("TOKEN_API", "VIEW", "TOKEN_SUBJECT", "7",
                "TOKEN_PRIVATE_KEY_FILE", pem("rsa.pem", "PRIVATE KEY", pair.getPrivate()).toString())), NOW));

        assertThat(jwt.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.RS256);
        assertThat(jwt.verify(new RSASSAVerifier((RSAPublicKey) pair.getPublic()))).isTrue();
        assertThat(jwt.getJWTClaimsSet().getAudience()).isEqualTo(List.of("readmark-view"));
    }

    @Test
    void shouldMintTokensTheNamedApiAcceptsAndTheOtherRefuses() throws Exception {
        // Given the two APIs configured as in docker-compose.yml: each its own key pair, its default audience
        KeyPair producerPair = ec("secp256r1");
        KeyPair viewPair = ec("secp256r1");
        Path producerKey = pem("producer-private.pem", "PRIVATE KEY", producerPair.getPrivate());
        Path viewKey = pem("view-private.pem", "PRIVATE KEY", viewPair.getPrivate());
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        JwtVerifier producer = new JwtVerifier(ProducerApiConfig.from(settings(Map.of("AUTH_JWT_PUBLIC_KEY_FILE",
                pem("producer-public.pem", "PUBLIC KEY", producerPair.getPublic()).toString()))).auth(), clock);
        JwtVerifier view = new JwtVerifier(ViewApiConfig.from(settings(Map.of("AUTH_JWT_PUBLIC_KEY_FILE",
                pem("view-public.pem", "PUBLIC KEY", viewPair.getPublic()).toString()))).auth(), clock);

        // When
        String forProducer = TokenCommand.sign(settings(Map.of("TOKEN_API", "producer", "TOKEN_SUBJECT", "blog-service",
                "TOKEN_SCOPE", "readmark:publish", "TOKEN_PRIVATE_KEY_FILE", producerKey.toString())), NOW);
        String forView = TokenCommand.sign(settings(Map.of("TOKEN_API", "view", "TOKEN_SUBJECT", "101",
                "TOKEN_PRIVATE_KEY_FILE", viewKey.toString())), NOW);
        String producerAudienceViewKey = TokenCommand.sign(settings(Map.of("TOKEN_API", "producer", "TOKEN_SUBJECT", "blog-service",
                "TOKEN_SCOPE", "readmark:publish", "TOKEN_PRIVATE_KEY_FILE", viewKey.toString())), NOW);

        // Then
        assertThat(producer.verify(forProducer).hasScope("readmark:publish")).isTrue();
        assertThat(view.verify(forView).userId()).hasValue(101);
        assertThatThrownBy(() -> producer.verify(forView)).isInstanceOf(InvalidTokenException.class);
        assertThatThrownBy(() -> view.verify(forProducer)).isInstanceOf(InvalidTokenException.class);
        assertThatThrownBy(() -> producer.verify(producerAudienceViewKey)).isInstanceOf(InvalidTokenException.class)
                .hasMessageContaining("signature does not verify");
    }

    @Test
    void shouldUseTheAudienceTheApiIsConfiguredWith() throws Exception {
        Settings settings = settings(Map.of("TOKEN_API", "producer", "TOKEN_SUBJECT", "s", "AUTH_JWT_HS256_SECRET", SECRET,
                "AUTH_JWT_AUDIENCE", "https://ingest.blog.example"));

        JWTClaimsSet claims = SignedJWT.parse(TokenCommand.sign(settings, NOW)).getJWTClaimsSet();

        assertThat(claims.getAudience()).isEqualTo(List.of("https://ingest.blog.example"));
        assertThat(claims.getExpirationTime().toInstant()).as("default lifetime").isEqualTo(NOW.plus(Duration.ofHours(1)));
    }

    @Test
    void shouldNameTheSettingThatIsMissingOrUnusable() throws Exception {
        Map<String, String> base = Map.of("TOKEN_API", "producer", "TOKEN_SUBJECT", "1");
        assertRefused(Map.of("TOKEN_SUBJECT", "1", "AUTH_JWT_HS256_SECRET", SECRET), "TOKEN_API", "producer or view");
        assertRefused(Map.of("TOKEN_API", "both", "TOKEN_SUBJECT", "1", "AUTH_JWT_HS256_SECRET", SECRET), "TOKEN_API must be producer or view, was 'both'");
        assertRefused(Map.of("TOKEN_API", "view", "AUTH_JWT_HS256_SECRET", SECRET), "TOKEN_SUBJECT");
        assertRefused(base, "exactly one of TOKEN_PRIVATE_KEY_FILE", "AUTH_JWT_HS256_SECRET");
        assertRefused(with(base, "AUTH_JWT_HS256_SECRET", "short"), "AUTH_JWT_HS256_SECRET must be at least 32 bytes");
        assertRefused(with(with(base, "AUTH_JWT_HS256_SECRET", SECRET), "TOKEN_TTL", "PT0S"), "TOKEN_TTL");

        KeyPair pair = ec("secp256r1");
        String privateKey = pem("private.pem", "PRIVATE KEY", pair.getPrivate()).toString();
        assertRefused(with(with(base, "AUTH_JWT_HS256_SECRET", SECRET), "TOKEN_PRIVATE_KEY_FILE", privateKey), "but both are set");
        assertRefused(with(base, "TOKEN_PRIVATE_KEY_FILE", dir.resolve("missing.pem").toString()), "TOKEN_PRIVATE_KEY_FILE: cannot read");
        assertRefused(with(base, "TOKEN_PRIVATE_KEY_FILE", pem("public.pem", "PUBLIC KEY", pair.getPublic()).toString()),
                "TOKEN_PRIVATE_KEY_FILE must hold an unencrypted PEM '-----BEGIN PRIVATE KEY-----' block");
        assertRefused(with(base, "TOKEN_PRIVATE_KEY_FILE", Files.writeString(dir.resolve("junk.pem"),
                "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n").toString()), "neither an RSA nor an EC key");
        assertRefused(with(base, "TOKEN_PRIVATE_KEY_FILE", pem("small.pem", "PRIVATE KEY", rsa(1024).getPrivate()).toString()),
                "RSA key of 1024 bits");
    }

    private static Map<String, String> with(Map<String, String> base, String name, String value) {
        Map<String, String> more = new HashMap<>(base);
        more.put(name, value);
        return more;
    }

    private static void assertRefused(Map<String, String> environment, String... message) {
        assertThatThrownBy(() -> TokenCommand.sign(settings(environment), NOW))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContainingAll(message);
    }
}
