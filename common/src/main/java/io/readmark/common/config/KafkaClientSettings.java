package io.readmark.common.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Kafka client properties passed on unread to every Kafka client a deployable makes (security, TLS, SASL, config
 * providers, tuning): those of the properties file named by {@value #FILE}, then every {@value #PREFIX} setting on top
 * ({@code KAFKA_CLIENT_SASL_JAAS_CONFIG} is {@code sasl.jaas.config}: prefix dropped, underscores to dots, lower case).
 * A property Readmark's guarantees rest on ({@link #GUARDED}), or one the client sets itself, is refused at start,
 * never silently overridden.
 */
public final class KafkaClientSettings {

    public static final String PREFIX = "KAFKA_CLIENT_";
    /** Inside the prefix, so it is excluded from the properties by name. */
    public static final String FILE = "KAFKA_CLIENT_CONFIG_FILE";
    /**
     * What the pipeline's guarantees rest on: where events go, how they are encoded and partitioned, that an
     * acknowledged event is on every in-sync replica exactly once and in order, that offsets are committed only after
     * Redis acknowledged, that no record is skipped by a handler, and that a new group starts from the earliest event.
     */
    static final Set<String> GUARDED = Set.of("bootstrap.servers", "key.serializer", "value.serializer",
            "key.deserializer", "value.deserializer", "acks", "enable.idempotence", "transactional.id", "isolation.level",
            "enable.auto.commit", "group.id", "application.id", "processing.guarantee",
            "default.key.serde", "default.value.serde", "partitioner.class", "auto.offset.reset",
            "processing.exception.handler", "processing.exception.handler.global.enabled",
            "deserialization.exception.handler", "default.deserialization.exception.handler",
            "production.exception.handler", "default.production.exception.handler");
    /** Kafka Streams' prefixes that aim a property at one of its clients. */
    private static final String[] CLIENT_PREFIXES = {"main.consumer.", "restore.consumer.", "global.consumer.", "consumer.",
            "producer.", "admin."};

    private static final KafkaClientSettings NONE = new KafkaClientSettings(Map.of(), Map.of());

    private final Map<String, String> properties;
    /** Property → the setting or file it came from, for messages an operator can act on. */
    private final Map<String, String> sources;

    private KafkaClientSettings(Map<String, String> properties, Map<String, String> sources) {
        this.properties = Map.copyOf(properties);
        this.sources = Map.copyOf(sources);
    }

    /** No properties: plaintext, unauthenticated clients. */
    public static KafkaClientSettings none() {
        return NONE;
    }

    /** Reads {@value #FILE} and the {@value #PREFIX} family; fails naming the setting for a guarded property. */
    public static KafkaClientSettings from(Settings settings) {
        Map<String, String> properties = new TreeMap<>();
        Map<String, String> sources = new HashMap<>();
        settings.find(FILE).ifPresent(file -> load(file).forEach((name, value) -> {
            properties.put(name, value);
            sources.put(name, FILE + " (" + file + ")");
        }));
        settings.withPrefix(PREFIX).forEach((setting, value) -> {
            if (setting.equals(FILE)) return;
            String name = setting.substring(PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.');
            properties.put(name, value);
            sources.put(name, setting);
        });
        properties.keySet().forEach(name -> {
            if (GUARDED.contains(unprefixed(name))) {
                throw new IllegalArgumentException(sources.get(name) + " sets " + name
                        + ", which Readmark's delivery guarantees rest on: it is not for the operator to set");
            }
        });
        return new KafkaClientSettings(properties, sources);
    }

    /** The properties as read, for a client that sets nothing itself. */
    public Map<String, Object> properties() {
        return Map.copyOf(properties);
    }

    /**
     * These properties with a client's own on top; a property both set is refused, since the client's own value is
     * what it relies on and the operator's would be ignored.
     *
     * @throws IllegalArgumentException naming the setting, when a property is one the client sets itself
     */
    public Map<String, Object> under(Map<String, ?> own) {
        Map<String, Object> merged = new HashMap<>(properties);
        own.forEach((ownName, value) -> {
            // Kafka Streams ranks main.consumer.x over consumer.x over x: any form of a property the client sets
            // would override it, or be overridden, silently.
            properties.keySet().stream().filter(name -> unprefixed(name).equals(unprefixed(ownName))).findFirst().ifPresent(name -> {
                throw new IllegalArgumentException(sources.get(name) + " sets " + name + ", which Readmark sets itself for this client");
            });
            merged.put(ownName, value);
        });
        return merged;
    }

    /** {@link #under} as {@link Properties}, as Kafka Streams takes them. */
    public Properties under(Properties own) {
        Map<String, Object> ownMap = new HashMap<>();
        own.forEach((name, value) -> ownMap.put(String.valueOf(name), value));
        Properties merged = new Properties();
        merged.putAll(under(ownMap));
        return merged;
    }

    @Override
    public String toString() {
        // Names only: values may be credentials.
        return "KafkaClientSettings" + properties.keySet();
    }

    private static String unprefixed(String name) {
        for (String prefix : CLIENT_PREFIXES) {
            if (name.startsWith(prefix)) return name.substring(prefix.length());
        }
        return name;
    }

    private static Map<String, String> load(String file) {
        Properties loaded = new Properties();
        try (Reader reader = Files.newBufferedReader(Path.of(file))) {
            loaded.load(reader);
        } catch (IOException e) {
            throw new IllegalArgumentException(FILE + ": cannot read '" + file + "': " + e.getMessage(), e);
        }
        Map<String, String> properties = new TreeMap<>();
        loaded.stringPropertyNames().forEach(name -> properties.put(name, loaded.getProperty(name).trim()));
        return properties;
    }
}
