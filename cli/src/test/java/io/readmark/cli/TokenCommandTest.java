package io.readmark.cli;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.readmark.common.config.Settings;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenCommandTest {

    private static final String SECRET = "0123456789abcdef0123456789abcdef";
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

    @Test
    void shouldSignAnHs256TokenTheApisCanVerifyWithTheSharedSecret() throws Exception {
        Settings settings = Settings.of(Map.of("TOKEN_SUBJECT", "101", "TOKEN_TTL", "PT30M"), Map.of(
                "AUTH_JWT_HS256_SECRET", SECRET, "AUTH_JWT_ISSUER", "https://blog.example", "AUTH_JWT_AUDIENCE", "readmark"));

        SignedJWT jwt = SignedJWT.parse(TokenCommand.sign(settings, NOW));

        assertThat(jwt.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.HS256);
        assertThat(jwt.verify(new MACVerifier(SECRET))).isTrue();
        JWTClaimsSet claims = jwt.getJWTClaimsSet();
        assertThat(claims.getSubject()).isEqualTo("101");
        assertThat(claims.getIssuer()).isEqualTo("https://blog.example");
        assertThat(claims.getAudience()).isEqualTo(List.of("readmark"));
        assertThat(claims.getIssueTime().toInstant()).isEqualTo(NOW);
        assertThat(claims.getExpirationTime().toInstant()).isEqualTo(NOW.plus(Duration.ofMinutes(30)));
    }

    @Test
    void shouldCarryTheScopesAndLeaveIssuerAndAudienceOutWhenTheApisCheckNone() throws Exception {
        Settings settings = Settings.of(Map.of("TOKEN_SUBJECT", "blog-service", "TOKEN_SCOPE", "readmark:publish readmark:read-any"),
                Map.of("AUTH_JWT_HS256_SECRET", SECRET));

        JWTClaimsSet claims = SignedJWT.parse(TokenCommand.sign(settings, NOW)).getJWTClaimsSet();

        assertThat(claims.getStringClaim("scope")).isEqualTo("readmark:publish readmark:read-any");
        assertThat(claims.getIssuer()).isNull();
        assertThat(claims.getAudience()).isEmpty();
        assertThat(claims.getExpirationTime().toInstant()).as("default lifetime").isEqualTo(NOW.plus(Duration.ofHours(1)));
    }

    @Test
    void shouldNameTheSettingThatIsMissingOrUnusable() {
        assertThatThrownBy(() -> TokenCommand.sign(Settings.of(Map.of("TOKEN_SUBJECT", "1"), Map.of()), NOW))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("AUTH_JWT_HS256_SECRET");
        assertThatThrownBy(() -> TokenCommand.sign(Settings.of(Map.of(), Map.of("AUTH_JWT_HS256_SECRET", SECRET)), NOW))
                .hasMessageContaining("TOKEN_SUBJECT");
        assertThatThrownBy(() -> TokenCommand.sign(Settings.of(Map.of("TOKEN_SUBJECT", "1"), Map.of("AUTH_JWT_HS256_SECRET", "short")), NOW))
                .hasMessageContaining("AUTH_JWT_HS256_SECRET").hasMessageContaining("32 bytes");
        assertThatThrownBy(() -> TokenCommand.sign(Settings.of(Map.of("TOKEN_SUBJECT", "1", "TOKEN_TTL", "PT0S"),
                Map.of("AUTH_JWT_HS256_SECRET", SECRET)), NOW))
                .hasMessageContaining("TOKEN_TTL");
    }
}
