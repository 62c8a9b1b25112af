package io.readmark.store.redis;

import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.SslVerifyMode;
import io.readmark.common.config.Settings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where Redis is and how to prove who we are to it: the URL ({@code redis://}, {@code rediss://} for TLS,
 * {@code redis-cluster://} / {@code rediss-cluster://} with comma-separated seeds, or {@code redis-sentinel://} /
 * {@code rediss-sentinel://} with comma-separated sentinels and {@code ?sentinelMasterId=NAME}), an ACL user and
 * password (in the URL, or from settings that override it), the sentinels' own password, and the CA that signs the
 * servers' certificates. Every URI it hands out, seeds and Pub/Sub nodes alike, carries the same credentials and TLS,
 * and nothing it prints shows a password.
 */
public final class RedisEndpoint {

    public static final String URL = "REDIS_URL";
    public static final String USERNAME = "REDIS_USERNAME";
    public static final String PASSWORD = "REDIS_PASSWORD";
    public static final String PASSWORD_FILE = "REDIS_PASSWORD_FILE";
    public static final String TLS_CA_FILE = "REDIS_TLS_CA_FILE";
    public static final String TLS_VERIFY = "REDIS_TLS_VERIFY";
    public static final String SENTINEL_PASSWORD = "REDIS_SENTINEL_PASSWORD";
    public static final String SENTINEL_PASSWORD_FILE = "REDIS_SENTINEL_PASSWORD_FILE";
    public static final String DEFAULT_URL = "redis://localhost:6379";

    private static final String CLUSTER = "redis-cluster://";
    private static final String TLS_CLUSTER = "rediss-cluster://";
    private static final String SENTINEL = "redis-sentinel://";
    private static final String TLS_SENTINEL = "rediss-sentinel://";

    private final String url;
    private final String username; // null: from the URL, or none
    private final char[] password; // null: from the URL, or none
    private final char[] sentinelPassword; // null: sentinels without AUTH
    private final Path caFile; // null: the JDK's trusted CAs
    private final SslVerifyMode verify;

    private RedisEndpoint(String url, String username, char[] password, char[] sentinelPassword, Path caFile, SslVerifyMode verify) {
        if (url == null || url.isBlank()) throw new IllegalArgumentException(URL + " must be set");
        this.url = url.trim();
        this.username = username;
        this.password = password;
        this.sentinelPassword = sentinelPassword;
        this.caFile = caFile;
        this.verify = verify;
        if (sentinelPassword != null && !isSentinel()) {
            throw new IllegalArgumentException(SENTINEL_PASSWORD + " needs a redis-sentinel:// or rediss-sentinel:// " + URL);
        }
        seeds(); // fail at configuration time on a URL that does not parse
    }

    /** The URL alone: credentials and TLS only as it carries them, the JDK's CAs, host names verified. */
    public static RedisEndpoint of(String url) {
        return new RedisEndpoint(url, null, null, null, null, SslVerifyMode.FULL);
    }

    /** As {@link #of}, with the user and password that override any in the URL. */
    public static RedisEndpoint of(String url, String username, String password) {
        return new RedisEndpoint(url, username, password == null ? null : password.toCharArray(), null, null, SslVerifyMode.FULL);
    }

    /** The same endpoint trusting the CA certificates (PEM) in {@code caFile}. */
    public RedisEndpoint trusting(Path caFile) {
        return new RedisEndpoint(url, username, password, sentinelPassword, caFile, verify);
    }

    /**
     * {@code REDIS_URL}, {@code REDIS_USERNAME}, {@code REDIS_PASSWORD} or {@code REDIS_PASSWORD_FILE},
     * {@code REDIS_SENTINEL_PASSWORD} or {@code REDIS_SENTINEL_PASSWORD_FILE}, {@code REDIS_TLS_*}.
     */
    public static RedisEndpoint from(Settings settings) {
        char[] password = password(settings, PASSWORD, PASSWORD_FILE);
        char[] sentinelPassword = password(settings, SENTINEL_PASSWORD, SENTINEL_PASSWORD_FILE);
        SslVerifyMode verify = switch (settings.string(TLS_VERIFY, "full").toLowerCase()) {
            case "full" -> SslVerifyMode.FULL;
            case "ca" -> SslVerifyMode.CA;
            default -> throw new IllegalArgumentException(TLS_VERIFY + " must be full or ca");
        };
        String url = settings.string(URL, DEFAULT_URL).trim();
        boolean tls = url.startsWith("rediss://") || url.startsWith(TLS_CLUSTER) || url.startsWith(TLS_SENTINEL);
        if (!tls && (settings.find(TLS_CA_FILE).isPresent() || settings.find(TLS_VERIFY).isPresent())) {
            // Set for TLS, ignored without it: the operator would believe the connection encrypted.
            throw new IllegalArgumentException(TLS_CA_FILE + " and " + TLS_VERIFY
                    + " need a rediss://, rediss-cluster:// or rediss-sentinel:// " + URL);
        }
        return new RedisEndpoint(url, settings.find(USERNAME).orElse(null), password, sentinelPassword,
                settings.find(TLS_CA_FILE).map(Path::of).orElse(null), verify);
    }

    /** The password set inline or in a file (at most one of the two), or null. */
    private static char[] password(Settings settings, String inlineSetting, String fileSetting) {
        Optional<String> inline = settings.find(inlineSetting);
        Optional<String> file = settings.find(fileSetting);
        if (inline.isPresent() && file.isPresent()) {
            throw new IllegalArgumentException("set at most one of " + inlineSetting + " and " + fileSetting);
        }
        return file.map(path -> readPassword(fileSetting, path)).or(() -> inline.map(String::toCharArray)).orElse(null);
    }

    private static char[] readPassword(String setting, String file) {
        try {
            // Surrounding whitespace is the file's, not the password's (echo and most editors add a newline).
            return Files.readString(Path.of(file), StandardCharsets.UTF_8).strip().toCharArray();
        } catch (IOException e) {
            throw new IllegalArgumentException(setting + ": cannot read " + file + ": " + e.getClass().getSimpleName(), e);
        }
    }

    /** Whether the URL names a Redis Cluster rather than one server. */
    public boolean isCluster() {
        return url.startsWith(CLUSTER) || url.startsWith(TLS_CLUSTER);
    }

    /** Whether the URL names the sentinels that know the master rather than the master itself. */
    public boolean isSentinel() {
        return url.startsWith(SENTINEL) || url.startsWith(TLS_SENTINEL);
    }

    /**
     * The server's URI, or on a cluster one per seed; each carries the credentials and TLS settings. With Sentinel
     * one URI, which the client resolves to the current master on every connect, its sentinels with their own.
     */
    public List<RedisURI> seeds() {
        if (!isCluster()) return List.of(secure(parse(url)));
        boolean tls = url.startsWith(TLS_CLUSTER);
        String rest = url.substring(tls ? TLS_CLUSTER.length() : CLUSTER.length());
        int at = rest.lastIndexOf('@');
        String userInfo = at < 0 ? "" : rest.substring(0, at + 1);
        String scheme = tls ? "rediss://" : "redis://";
        return Arrays.stream(rest.substring(at + 1).split(","))
                .map(hostPort -> secure(parse(scheme + userInfo + hostPort.trim()))).toList();
    }

    /** A node learned from the cluster, with the seeds' credentials and TLS (the cluster reports host and port only). */
    public RedisURI node(String host, int port) {
        RedisURI template = seeds().getFirst();
        return RedisURI.Builder.redis(host, port).withSsl(template).withAuthentication(template)
                .withTimeout(template.getTimeout()).build();
    }

    /** The TLS trust to give the client: the configured CA, or empty for the JDK's trusted CAs. */
    public Optional<SslOptions> sslOptions() {
        return Optional.ofNullable(caFile).map(file -> SslOptions.builder().jdkSslProvider().trustManager(file.toFile()).build());
    }

    private RedisURI parse(String text) {
        try {
            return RedisURI.create(text);
        } catch (RuntimeException e) {
            // Neither the parser's message nor its exception: either may quote the URL, password included.
            throw new IllegalArgumentException(URL + " is not a Redis URL: " + masked()
                    + (isSentinel() ? " (a Sentinel URL names its master: ?sentinelMasterId=NAME)" : ""));
        }
    }

    private RedisURI secure(RedisURI uri) {
        if (password != null) {
            if (username != null) uri.setAuthentication(username, password);
            else uri.setAuthentication(password);
        } else if (username != null) {
            throw new IllegalArgumentException(USERNAME + " needs a password: set " + PASSWORD_FILE + " or " + PASSWORD);
        }
        if (uri.isSsl()) uri.setVerifyPeer(verify);
        // Sentinels keep passwords of their own (requirepass in sentinel.conf), never the data nodes' users; the
        // verify mode above reaches them already.
        if (sentinelPassword != null) uri.getSentinels().forEach(sentinel -> sentinel.setAuthentication(sentinelPassword));
        return uri;
    }

    /** The URL with any password in it replaced by {@code ***}. */
    String masked() {
        int scheme = url.indexOf("://");
        int at = url.lastIndexOf('@');
        if (scheme < 0 || at < scheme) return url;
        String userInfo = url.substring(scheme + 3, at);
        int colon = userInfo.indexOf(':');
        String user = colon < 0 ? "" : userInfo.substring(0, colon);
        return url.substring(0, scheme + 3) + user + ":***" + url.substring(at);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RedisEndpoint that && url.equals(that.url) && Objects.equals(username, that.username)
                && Arrays.equals(password, that.password) && Arrays.equals(sentinelPassword, that.sentinelPassword)
                && Objects.equals(caFile, that.caFile) && verify == that.verify;
    }

    @Override
    public int hashCode() {
        return Objects.hash(url, username, caFile, verify);
    }

    @Override
    public String toString() {
        return masked() + (username == null ? "" : " as " + username) + (password == null ? "" : " (password set)")
                + (sentinelPassword == null ? "" : " (sentinel password set)")
                + (caFile == null ? "" : " trusting " + caFile) + (verify == SslVerifyMode.FULL ? "" : " verifying " + verify);
    }
}
