package io.readmark.common.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Looks up one named setting through layers: explicit overrides (command-line flags), then environment variables,
 * then the properties file named by {@code READMARK_CONFIG}, then defaults set for a mode (local runs), then the
 * default given in code.
 * A value that does not parse fails loudly with the setting's name instead of falling back silently.
 * Remembers every name looked up, so a test can check that each setting the code reads is documented.
 */
public final class Settings {

    public static final String CONFIG_FILE_VARIABLE = "READMARK_CONFIG";

    private final Map<String, String> overrides;
    private final Map<String, String> environment;
    private final Properties file;
    private final Map<String, String> defaults;
    /** Shared with every lookup derived from this one by {@link #withOverrides} and {@link #withDefaults}. */
    private final Set<String> namesLookedUp;

    private Settings(Map<String, String> overrides, Map<String, String> environment, Properties file,
                     Map<String, String> defaults, Set<String> namesLookedUp) {
        this.overrides = Map.copyOf(overrides);
        this.environment = Map.copyOf(environment);
        this.file = file;
        this.defaults = Map.copyOf(defaults);
        this.namesLookedUp = namesLookedUp;
    }

    /** Settings from the process environment and, if {@code READMARK_CONFIG} names one, a properties file. */
    public static Settings fromEnvironment() {
        return of(Map.of(), System.getenv());
    }

    public static Settings of(Map<String, String> overrides, Map<String, String> environment) {
        Properties file = new Properties();
        String path = overrides.getOrDefault(CONFIG_FILE_VARIABLE, environment.get(CONFIG_FILE_VARIABLE));
        if (path != null && !path.isBlank()) {
            try (Reader reader = Files.newBufferedReader(Path.of(path))) {
                file.load(reader);
            } catch (IOException e) {
                throw new IllegalArgumentException(CONFIG_FILE_VARIABLE + ": cannot read '" + path + "': " + e.getMessage(), e);
            }
        }
        return new Settings(overrides, environment, file, Map.of(), ConcurrentHashMap.newKeySet());
    }

    /** The same lookup with more overrides on top (for example flags parsed after the environment). */
    public Settings withOverrides(Map<String, String> more) {
        Map<String, String> merged = new HashMap<>(overrides);
        merged.putAll(more);
        return new Settings(merged, environment, file, defaults, namesLookedUp);
    }

    /** The same lookup with different defaults below every other layer (for example local-mode defaults). */
    public Settings withDefaults(Map<String, String> more) {
        Map<String, String> merged = new HashMap<>(defaults);
        merged.putAll(more);
        return new Settings(overrides, environment, file, merged, namesLookedUp);
    }

    public Optional<String> find(String name) {
        namesLookedUp.add(name);
        String value = overrides.get(name);
        if (value == null) value = environment.get(name);
        if (value == null) value = file.getProperty(name);
        if (value == null) value = defaults.get(name);
        return Optional.ofNullable(value).map(String::trim).filter(v -> !v.isEmpty());
    }

    /**
     * Every setting whose name starts with {@code prefix}, from any layer, with its value as {@link #find} gives it
     * (blank ones left out): a family of settings that are passed on rather than read one by one.
     */
    public Map<String, String> withPrefix(String prefix) {
        Set<String> names = new TreeSet<>();
        for (Map<?, ?> layer : List.of(overrides, environment, file, defaults)) {
            layer.keySet().forEach(name -> {
                if (name instanceof String s && s.startsWith(prefix)) names.add(s);
            });
        }
        Map<String, String> found = new TreeMap<>();
        names.forEach(name -> find(name).ifPresent(value -> found.put(name, value)));
        return found;
    }

    /** Every setting name looked up so far, here or in a lookup derived from this one. */
    public Set<String> namesLookedUp() {
        return Set.copyOf(namesLookedUp);
    }

    public String string(String name, String defaultValue) {
        return find(name).orElse(defaultValue);
    }

    public int integer(String name, int defaultValue) {
        return find(name).map(v -> parse(name, v, Integer::parseInt, "an integer")).orElse(defaultValue);
    }

    public int positiveInteger(String name, int defaultValue) {
        int value = integer(name, defaultValue);
        if (value <= 0) throw invalid(name, String.valueOf(value), "a positive integer");
        return value;
    }

    public long longValue(String name, long defaultValue) {
        return find(name).map(v -> parse(name, v, Long::parseLong, "an integer")).orElse(defaultValue);
    }

    public boolean bool(String name, boolean defaultValue) {
        return find(name).map(v -> switch (v.toLowerCase()) {
            case "true", "yes", "1", "on" -> true;
            case "false", "no", "0", "off" -> false;
            default -> throw invalid(name, v, "true or false");
        }).orElse(defaultValue);
    }

    /** A duration in ISO-8601 ({@code PT5S}) or as milliseconds ({@code 5000}). */
    public Duration duration(String name, Duration defaultValue) {
        return find(name).map(v -> parse(name, v, Settings::parseDuration, "a duration like PT5S or 5000 (ms)"))
                .orElse(defaultValue);
    }

    private static Duration parseDuration(String value) {
        return value.chars().allMatch(Character::isDigit) ? Duration.ofMillis(Long.parseLong(value)) : Duration.parse(value);
    }

    private static <T> T parse(String name, String value, java.util.function.Function<String, T> parser, String expected) {
        try {
            return parser.apply(value);
        } catch (RuntimeException e) {
            throw invalid(name, value, expected);
        }
    }

    private static IllegalArgumentException invalid(String name, String value, String expected) {
        return new IllegalArgumentException(name + " must be " + expected + ", was '" + value + "'");
    }
}
