package io.readmark.common.auth;

import io.readmark.common.config.Settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * How an API authenticates callers: bearer JWTs checked against one key source, or nothing at all (local runs).
 * Read and validated once at startup, keys included, so a bad setting fails the start naming the setting.
 * <p>
 * Every token must name the API it is for in {@code aud}: each API has its own audience (its default is
 * {@code readmark-producer} or {@code readmark-view}), so a token minted for one API is refused by the other even
 * where both trust the same issuer.
 *
 * @param enabled   false only for {@code READMARK_AUTH=off}; the other components are then null
 * @param keys      the keys tokens may be signed with
 * @param issuer    the {@code iss} every token must carry, or null to accept any
 * @param audience  a value every token's {@code aud} must contain: this API's name
 * @param clockSkew tolerance for {@code exp}, {@code nbf} and {@code iat} against this host's clock
 */
public record AuthConfig(boolean enabled, VerificationKeys keys, String issuer, String audience, Duration clockSkew) {

    public static final String MODE = "READMARK_AUTH";
    public static final String HS256_SECRET = "AUTH_JWT_HS256_SECRET";
    public static final String PUBLIC_KEY_FILE = "AUTH_JWT_PUBLIC_KEY_FILE";
    public static final String JWKS_FILE = "AUTH_JWKS_FILE";
    public static final String ISSUER = "AUTH_JWT_ISSUER";
    public static final String AUDIENCE = "AUTH_JWT_AUDIENCE";
    public static final String CLOCK_SKEW = "AUTH_CLOCK_SKEW";

    public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(60);
    /** The producer API's default audience: a token it accepts has this in {@code aud}. */
    public static final String PRODUCER_API_AUDIENCE = "readmark-producer";
    /** The view API's default audience. */
    public static final String VIEW_API_AUDIENCE = "readmark-view";

    private static final AuthConfig OFF = new AuthConfig(false, null, null, null, null);

    public AuthConfig {
        if (enabled) {
            Objects.requireNonNull(keys, "keys");
            Objects.requireNonNull(clockSkew, "clockSkew");
            // Without an audience a token for the other API (or any other service of the issuer) would pass here.
            if (audience == null || audience.isBlank()) throw new IllegalArgumentException(AUDIENCE + " must not be empty");
            if (issuer != null && issuer.isBlank()) throw new IllegalArgumentException(ISSUER + " must not be blank");
            if (clockSkew.isNegative()) throw new IllegalArgumentException(CLOCK_SKEW + " must not be negative, was " + clockSkew);
        }
    }

    /** No authentication: every request is let through. Only for local runs and tests. */
    public static AuthConfig off() {
        return OFF;
    }

    public static AuthConfig jwt(VerificationKeys keys, String issuer, String audience, Duration clockSkew) {
        return new AuthConfig(true, keys, issuer, audience, clockSkew);
    }

    /**
     * Reads {@code READMARK_AUTH} and the {@code AUTH_*} settings of one API; {@code defaultAudience} is that API's
     * audience when {@code AUTH_JWT_AUDIENCE} is not set.
     */
    public static AuthConfig from(Settings settings, String defaultAudience) {
        String mode = settings.string(MODE, "jwt");
        if (mode.equalsIgnoreCase("off")) return off();
        if (!mode.equalsIgnoreCase("jwt")) throw new IllegalArgumentException(MODE + " must be jwt or off, was '" + mode + "'");
        Map<String, String> sources = new LinkedHashMap<>();
        for (String name : new String[] {HS256_SECRET, PUBLIC_KEY_FILE, JWKS_FILE}) {
            settings.find(name).ifPresent(value -> sources.put(name, value));
        }
        if (sources.isEmpty()) {
            throw new IllegalArgumentException(MODE + "=jwt needs one of " + HS256_SECRET + ", " + PUBLIC_KEY_FILE + ", "
                    + JWKS_FILE + " (or " + MODE + "=off for local runs)");
        }
        if (sources.size() > 1) {
            throw new IllegalArgumentException(MODE + "=jwt takes exactly one key source, but " + String.join(" and ", sources.keySet()) + " are set");
        }
        Map.Entry<String, String> source = sources.entrySet().iterator().next();
        VerificationKeys keys = switch (source.getKey()) {
            case HS256_SECRET -> keys(HS256_SECRET, source.getValue(), VerificationKeys::hs256Secret);
            case PUBLIC_KEY_FILE -> keys(PUBLIC_KEY_FILE, read(PUBLIC_KEY_FILE, source.getValue()), VerificationKeys::pemPublicKey);
            default -> keys(JWKS_FILE, read(JWKS_FILE, source.getValue()), VerificationKeys::jwkSet);
        };
        return jwt(keys, settings.find(ISSUER).orElse(null), settings.string(AUDIENCE, defaultAudience),
                settings.duration(CLOCK_SKEW, DEFAULT_CLOCK_SKEW));
    }

    private static VerificationKeys keys(String setting, String value, Function<String, VerificationKeys> parser) {
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) {
            // The messages never quote the value: it may be a secret.
            throw new IllegalArgumentException(setting + " " + e.getMessage(), e);
        }
    }

    private static String read(String setting, String file) {
        try {
            return Files.readString(Path.of(file));
        } catch (IOException | InvalidPathException e) {
            throw new IllegalArgumentException(setting + ": cannot read '" + file + "' (" + e + ")", e);
        }
    }
}
