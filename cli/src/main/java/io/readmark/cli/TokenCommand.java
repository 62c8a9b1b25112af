package io.readmark.cli;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.KeyLengthException;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.readmark.common.auth.AuthConfig;
import io.readmark.common.auth.Scopes;
import io.readmark.common.config.Settings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code readmark token}: signs a JWT for one API ({@code TOKEN_API}: {@code producer} or {@code view}) so a
 * deployment can be tried with curl. The token's {@code aud} is that API's audience ({@code AUTH_JWT_AUDIENCE} when
 * set, else the API's default) and its {@code iss} is {@code AUTH_JWT_ISSUER} when set. It is signed with the
 * private key in {@code TOKEN_PRIVATE_KEY_FILE} (RS256 or the ES* of the key's curve), the pair of the public key
 * the API verifies with, or with {@code AUTH_JWT_HS256_SECRET}. The subject is a user id (a user reads their own
 * unread state) or a service's name; scopes such as {@code readmark:publish:reads} go in {@code scope}, and a
 * {@code readmark:} scope the API does not know is refused, as a misspelt one would only mint a token the API refuses.
 * Not an identity provider: whoever holds the key can mint any token for that API.
 */
final class TokenCommand {

    static final String API = "TOKEN_API";
    static final String PRIVATE_KEY_FILE = "TOKEN_PRIVATE_KEY_FILE";
    static final String SECRET = AuthConfig.HS256_SECRET;
    static final String ISSUER = AuthConfig.ISSUER;
    static final String AUDIENCE = AuthConfig.AUDIENCE;
    static final String SUBJECT = "TOKEN_SUBJECT";
    static final String TTL = "TOKEN_TTL";
    static final String SCOPE = "TOKEN_SCOPE";

    /** The value of {@code TOKEN_API} → the audience that API requires unless {@code AUTH_JWT_AUDIENCE} says otherwise. */
    static final Map<String, String> DEFAULT_AUDIENCES = Map.of(
            "producer", AuthConfig.PRODUCER_API_AUDIENCE,
            "view", AuthConfig.VIEW_API_AUDIENCE);

    /** The value of {@code TOKEN_API} → the Readmark scopes that API acts on. */
    static final Map<String, List<String>> API_SCOPES = Map.of(
            "producer", Scopes.PUBLISHING,
            "view", List.of(Scopes.READ_ANY));
    private static final String READMARK_SCOPE_PREFIX = "readmark:";

    private static final Pattern PEM_PRIVATE_KEY = Pattern.compile(
            "-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");
    /** What the APIs accept, so a token this signs is never refused for its key alone. */
    private static final int MIN_RSA_BITS = 2048;
    private static final Map<Curve, JWSAlgorithm> EC_ALGORITHMS = Map.of(
            Curve.P_256, JWSAlgorithm.ES256, Curve.P_384, JWSAlgorithm.ES384, Curve.P_521, JWSAlgorithm.ES512);

    private TokenCommand() {
    }

    /** The compact serialization of a token issued at {@code now}; a missing or unusable setting is named. */
    static String sign(Settings settings, Instant now) {
        // Every setting is looked up before any is judged, so the documentation check sees them all.
        Optional<String> api = settings.find(API);
        Optional<String> keyFile = settings.find(PRIVATE_KEY_FILE);
        Optional<String> secret = settings.find(SECRET);
        Optional<String> subject = settings.find(SUBJECT);
        Optional<String> issuer = settings.find(ISSUER);
        Optional<String> audienceSetting = settings.find(AUDIENCE);
        Optional<String> scope = settings.find(SCOPE);
        Duration ttl = settings.duration(TTL, Duration.ofHours(1));

        String apiName = api.map(value -> value.toLowerCase(Locale.ROOT)).orElseThrow(() -> new IllegalArgumentException(
                "token needs " + API + ": the API the token is for, producer or view (each API accepts only its own audience)"));
        String defaultAudience = DEFAULT_AUDIENCES.get(apiName);
        if (defaultAudience == null) throw new IllegalArgumentException(API + " must be producer or view, was '" + api.get() + "'");
        if (subject.isEmpty()) throw new IllegalArgumentException("token needs " + SUBJECT + ": the token's subject, e.g. --token-subject 101");
        scope.ifPresent(value -> requireKnownScopes(apiName, value));
        if (!ttl.isPositive()) throw new IllegalArgumentException(TTL + " must be positive, was " + ttl);
        if (keyFile.isPresent() == secret.isPresent()) {
            throw new IllegalArgumentException("token needs exactly one of " + PRIVATE_KEY_FILE + " (the private key of the pair whose "
                    + "public key the API verifies with) and " + SECRET + (keyFile.isPresent() ? ", but both are set" : ""));
        }

        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .subject(subject.get())
                .audience(audienceSetting.orElse(defaultAudience))
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(ttl)));
        issuer.ifPresent(claims::issuer);
        scope.ifPresent(value -> claims.claim("scope", value));

        Signer signer = keyFile.map(TokenCommand::privateKeySigner).orElseGet(() -> secretSigner(secret.get()));
        SignedJWT jwt = new SignedJWT(new JWSHeader(signer.algorithm()), claims.build());
        try {
            jwt.sign(signer.signer());
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign the token: " + e.getMessage(), e);
        }
        return jwt.serialize();
    }

    /** Scopes of other issuers ({@code openid}, say) pass; a {@code readmark:} one must be one this API acts on. */
    private static void requireKnownScopes(String apiName, String scope) {
        List<String> known = API_SCOPES.get(apiName);
        for (String each : scope.split(" ")) {
            if (each.startsWith(READMARK_SCOPE_PREFIX) && !known.contains(each)) {
                throw new IllegalArgumentException(SCOPE + ": the " + apiName + " API knows no scope '" + each + "'; its scopes are "
                        + String.join(", ", known));
            }
        }
    }

    private record Signer(JWSAlgorithm algorithm, JWSSigner signer) {
    }

    private static Signer secretSigner(String secret) {
        try {
            return new Signer(JWSAlgorithm.HS256, new MACSigner(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (KeyLengthException e) {
            throw new IllegalArgumentException(SECRET + " must be at least 32 bytes for HS256", e);
        }
    }

    /** An unencrypted PKCS#8 PEM key, as {@code openssl genpkey} writes it: RSA signs RS256, EC the ES* of its curve. */
    private static Signer privateKeySigner(String file) {
        String pem;
        try {
            pem = Files.readString(Path.of(file));
        } catch (IOException | InvalidPathException e) {
            throw new IllegalArgumentException(PRIVATE_KEY_FILE + ": cannot read '" + file + "' (" + e + ")", e);
        }
        Matcher block = PEM_PRIVATE_KEY.matcher(pem);
        if (!block.find()) {
            throw new IllegalArgumentException(PRIVATE_KEY_FILE + " must hold an unencrypted PEM '-----BEGIN PRIVATE KEY-----' "
                    + "block (PKCS#8, as openssl genpkey writes it; convert others with openssl pkcs8 -topk8 -nocrypt)");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(block.group(1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PRIVATE_KEY_FILE + " holds a PRIVATE KEY block that is not valid base64", e);
        }
        PrivateKey key = parse(der);
        try {
            return switch (key) {
                case RSAPrivateKey rsa -> {
                    if (rsa.getModulus().bitLength() < MIN_RSA_BITS) {
                        throw new IllegalArgumentException(PRIVATE_KEY_FILE + " is an RSA key of " + rsa.getModulus().bitLength()
                                + " bits; the APIs accept at least " + MIN_RSA_BITS);
                    }
                    yield new Signer(JWSAlgorithm.RS256, new RSASSASigner(rsa));
                }
                case ECPrivateKey ec -> {
                    Curve curve = Curve.forECParameterSpec(ec.getParams());
                    JWSAlgorithm algorithm = curve == null ? null : EC_ALGORITHMS.get(curve);
                    if (algorithm == null) throw new IllegalArgumentException(PRIVATE_KEY_FILE + " is an EC key on a curve other than P-256, P-384 or P-521");
                    yield new Signer(algorithm, new ECDSASigner(ec));
                }
                default -> throw new IllegalArgumentException(PRIVATE_KEY_FILE + " holds neither an RSA nor an EC key");
            };
        } catch (JOSEException e) {
            throw new IllegalArgumentException(PRIVATE_KEY_FILE + " is not a usable signing key: " + e.getMessage(), e);
        }
    }

    private static PrivateKey parse(byte[] der) {
        for (String type : List.of("RSA", "EC")) {
            try {
                return KeyFactory.getInstance(type).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // not this key type; try the next
            }
        }
        throw new IllegalArgumentException(PRIVATE_KEY_FILE + " holds a PRIVATE KEY that is neither an RSA nor an EC key");
    }
}
