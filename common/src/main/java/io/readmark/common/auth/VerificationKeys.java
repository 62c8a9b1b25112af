package io.readmark.common.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The keys tokens may be signed with, each bound to the algorithms that fit it: an HMAC secret only to HS256, an RSA
 * key only to RS* and PS*, an EC key only to the ES* of its curve. Binding algorithms to keys here is what rules out
 * algorithm confusion (a token "HS256-signed" with a public key) and unsigned tokens. A bad key fails at startup.
 */
public final class VerificationKeys {

    /** One key: {@code kid} is null when the source names none (a secret or a PEM file). */
    record Key(String kid, Set<JWSAlgorithm> algorithms, JWSVerifier verifier) {
    }

    static final int MIN_SECRET_BYTES = 32;
    private static final int MIN_RSA_BITS = 2048;
    private static final Set<JWSAlgorithm> RSA_ALGORITHMS = Set.of(
            JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512);
    private static final Map<Curve, JWSAlgorithm> EC_ALGORITHMS = Map.of(
            Curve.P_256, JWSAlgorithm.ES256, Curve.P_384, JWSAlgorithm.ES384, Curve.P_521, JWSAlgorithm.ES512);
    private static final Pattern PEM_PUBLIC_KEY = Pattern.compile(
            "-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\\s]+)-----END PUBLIC KEY-----");

    private final List<Key> keys;
    private final Set<JWSAlgorithm> algorithms;

    private VerificationKeys(List<Key> keys) {
        this.keys = List.copyOf(keys);
        Set<JWSAlgorithm> all = new LinkedHashSet<>();
        keys.forEach(key -> all.addAll(key.algorithms()));
        this.algorithms = Collections.unmodifiableSet(all);
    }

    /** A shared HS256 secret of at least 32 bytes (its UTF-8 encoding), as RFC 7518 requires for HS256. */
    public static VerificationKeys hs256Secret(String secret) {
        byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("must be at least " + MIN_SECRET_BYTES + " bytes, was " + bytes.length);
        }
        try {
            return new VerificationKeys(List.of(new Key(null, Set.of(JWSAlgorithm.HS256), new MACVerifier(bytes))));
        } catch (JOSEException e) {
            throw new IllegalArgumentException("is not a usable HMAC secret: " + e.getMessage(), e);
        }
    }

    /** One PEM {@code PUBLIC KEY} (SubjectPublicKeyInfo), RSA or EC. */
    public static VerificationKeys pemPublicKey(String pem) {
        Matcher block = PEM_PUBLIC_KEY.matcher(pem);
        if (!block.find()) throw new IllegalArgumentException("must hold a PEM '-----BEGIN PUBLIC KEY-----' block");
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(block.group(1));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("holds a PUBLIC KEY block that is not valid base64", e);
        }
        return new VerificationKeys(List.of(keyFor(null, parsePublicKey(der), null)));
    }

    /** A JWK set (RFC 7517); keys marked {@code "use":"enc"} are skipped, as they never sign. */
    public static VerificationKeys jwkSet(String json) {
        JWKSet set;
        try {
            set = JWKSet.parse(json);
        } catch (ParseException e) {
            throw new IllegalArgumentException("is not a JWK set: " + e.getMessage(), e);
        }
        List<Key> keys = new ArrayList<>();
        for (JWK jwk : set.getKeys()) {
            if (KeyUse.ENCRYPTION.equals(jwk.getKeyUse())) continue;
            String name = jwk.getKeyID() == null ? "a key without kid" : "key '" + jwk.getKeyID() + "'";
            try {
                PublicKey publicKey = switch (jwk) {
                    case RSAKey rsa -> rsa.toRSAPublicKey();
                    case ECKey ec -> ec.toECPublicKey();
                    default -> throw new IllegalArgumentException("has key type " + jwk.getKeyType() + "; only RSA and EC keys are accepted");
                };
                JWSAlgorithm pinned = jwk.getAlgorithm() == null ? null : JWSAlgorithm.parse(jwk.getAlgorithm().getName());
                keys.add(keyFor(jwk.getKeyID(), publicKey, pinned));
            } catch (JOSEException | IllegalArgumentException e) {
                throw new IllegalArgumentException(name + " " + e.getMessage(), e);
            }
        }
        if (keys.isEmpty()) throw new IllegalArgumentException("holds no signature key");
        return new VerificationKeys(keys);
    }

    /** Every algorithm some key accepts; any other {@code alg}, {@code none} included, is refused before verifying. */
    public Set<JWSAlgorithm> algorithms() {
        return algorithms;
    }

    /** The keys that fit the token's {@code alg} and {@code kid}; a key without a kid fits any kid. */
    List<Key> candidates(JWSHeader header) {
        String kid = header.getKeyID();
        return keys.stream()
                .filter(key -> key.algorithms().contains(header.getAlgorithm()))
                .filter(key -> key.kid() == null || kid == null || key.kid().equals(kid))
                .toList();
    }

    @Override
    public String toString() {
        return keys.size() + (keys.size() == 1 ? " key" : " keys") + " for "
                + algorithms.stream().map(JWSAlgorithm::getName).sorted().collect(Collectors.joining(", "));
    }

    private static PublicKey parsePublicKey(byte[] der) {
        for (String type : List.of("RSA", "EC")) {
            try {
                return KeyFactory.getInstance(type).generatePublic(new X509EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // not this key type; try the next
            }
        }
        throw new IllegalArgumentException("holds a PUBLIC KEY that is neither an RSA nor an EC key");
    }

    /** Binds the key to the algorithms that fit it, narrowed to {@code pinned} when its JWK names one. */
    private static Key keyFor(String kid, PublicKey publicKey, JWSAlgorithm pinned) {
        Key key = switch (publicKey) {
            case RSAPublicKey rsa -> {
                if (rsa.getModulus().bitLength() < MIN_RSA_BITS) {
                    throw new IllegalArgumentException("is an RSA key of " + rsa.getModulus().bitLength() + " bits; at least " + MIN_RSA_BITS + " are required");
                }
                yield new Key(kid, RSA_ALGORITHMS, new RSASSAVerifier(rsa));
            }
            case ECPublicKey ec -> {
                Curve curve = Curve.forECParameterSpec(ec.getParams());
                JWSAlgorithm algorithm = curve == null ? null : EC_ALGORITHMS.get(curve);
                if (algorithm == null) throw new IllegalArgumentException("is an EC key on a curve other than P-256, P-384 or P-521");
                try {
                    yield new Key(kid, Set.of(algorithm), new ECDSAVerifier(ec));
                } catch (JOSEException e) {
                    throw new IllegalArgumentException("is not a usable EC key: " + e.getMessage(), e);
                }
            }
            default -> throw new IllegalArgumentException("is neither an RSA nor an EC key");
        };
        if (pinned == null) return key;
        if (!key.algorithms().contains(pinned)) {
            throw new IllegalArgumentException("names alg " + pinned + ", which does not fit the key (" + key.algorithms() + ")");
        }
        return new Key(kid, Set.of(pinned), key.verifier());
    }
}
