package io.readmark.common.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Date;
import java.util.List;

/** Key pairs made with the JDK and tokens signed with nimbus, the way an issuer would make them. */
final class TestKeys {

    /** The verifiers' clock in these tests: token times are set relative to it. */
    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    static final String SECRET = "a-shared-secret-of-at-least-32-bytes!";
    /** The audience of the verifiers in these tests: the producer API's. */
    static final String AUDIENCE = AuthConfig.PRODUCER_API_AUDIENCE;
    static final KeyPair RSA = generate("RSA", 2048);
    static final KeyPair RSA_OTHER = generate("RSA", 2048);
    static final KeyPair EC_P256 = generateEc("secp256r1");
    static final KeyPair EC_P256_OTHER = generateEc("secp256r1");
    static final KeyPair EC_P384 = generateEc("secp384r1");

    private TestKeys() {
    }

    static String pem(PublicKey key) {
        return "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
    }

    /** A JWK set of public keys: the RSA key as {@code rsa-1}, the P-256 key as {@code ec-1}. */
    static String jwks() {
        return new JWKSet(List.of(
                new RSAKey.Builder((RSAPublicKey) RSA.getPublic()).keyID("rsa-1").build(),
                new ECKey.Builder(Curve.P_256, (ECPublicKey) EC_P256.getPublic()).keyID("ec-1").build())).toString();
    }

    /** Claims for subject {@code sub} and the audience {@link #AUDIENCE}, issued at {@link #NOW} and valid for an hour. */
    static JWTClaimsSet.Builder claims(String sub) {
        return new JWTClaimsSet.Builder().subject(sub).audience(AUDIENCE)
                .issueTime(Date.from(NOW)).expirationTime(Date.from(NOW.plusSeconds(3600)));
    }

    static String hs256(JWTClaimsSet claims) {
        return sign(JWSAlgorithm.HS256, null, macSigner(SECRET.getBytes(StandardCharsets.UTF_8)), claims);
    }

    static String rs256(KeyPair pair, String kid, JWTClaimsSet claims) {
        return sign(JWSAlgorithm.RS256, kid, new RSASSASigner((RSAPrivateKey) pair.getPrivate()), claims);
    }

    static String es(JWSAlgorithm algorithm, KeyPair pair, String kid, JWTClaimsSet claims) {
        try {
            return sign(algorithm, kid, new ECDSASigner((ECPrivateKey) pair.getPrivate()), claims);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    static String sign(JWSAlgorithm algorithm, String kid, JWSSigner signer, JWTClaimsSet claims) {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(algorithm).keyID(kid).build(), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }

    static JWSSigner macSigner(byte[] secret) {
        try {
            return new MACSigner(secret);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyPair generate(String algorithm, int size) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
            generator.initialize(size);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyPair generateEc(String curve) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec(curve));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
