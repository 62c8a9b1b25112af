package io.readmark.infra;

import java.util.Map;
import java.util.Objects;

/**
 * A SCRAM-SHA-512 user of a secured {@link EmbeddedKafka}, and the client properties that log in as it. Names and
 * passwords are plain tokens (letters, digits, {@code -_.}), so they need no quoting in JAAS or the storage format.
 */
public record ScramUser(String name, String password) {

    public static final String MECHANISM = "SCRAM-SHA-512";

    public ScramUser {
        requireToken(name, "name");
        requireToken(password, "password");
    }

    /** What a Kafka client needs to authenticate as this user on the broker's SASL_PLAINTEXT listener. */
    public Map<String, String> clientProperties() {
        return Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", MECHANISM, "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + name
                        + "\" password=\"" + password + "\";");
    }

    /** The credential as {@code kafka-storage.sh format --add-scram} takes it, so the user exists from the first start. */
    String formatArgument() {
        return MECHANISM + "=[name=" + name + ",password=" + password + "]";
    }

    @Override
    public String toString() {
        return "ScramUser[" + name + "]";
    }

    private static void requireToken(String value, String what) {
        Objects.requireNonNull(value, what);
        if (!value.matches("[A-Za-z0-9._-]+")) throw new IllegalArgumentException("SCRAM " + what + " must be a plain token");
    }
}
