package io.readmark.store.redis;

import io.lettuce.core.RedisURI;
import io.lettuce.core.SslVerifyMode;
import io.readmark.common.config.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RedisEndpointTest {

    @TempDir
    Path dir;

    @Test
    void shouldGiveEveryClusterSeedAndLearnedNodeTheSchemeAndCredentialsOfTheUrl() {
        RedisEndpoint endpoint = RedisEndpoint.of("rediss-cluster://alice:s3cret@r1:7000, r2:7001");

        List<RedisURI> seeds = endpoint.seeds();
        RedisURI node = endpoint.node("10.0.0.9", 7002);

        assertThat(endpoint.isCluster()).isTrue();
        assertThat(seeds).extracting(RedisURI::getHost).containsExactly("r1", "r2");
        for (RedisURI uri : List.of(seeds.get(0), seeds.get(1), node)) {
            assertThat(uri.isSsl()).as("TLS of %s", uri).isTrue();
            assertThat(uri.getVerifyMode()).isEqualTo(SslVerifyMode.FULL);
            assertThat(uri.getCredentialsProvider().resolveCredentials().block().getUsername()).isEqualTo("alice");
            assertThat(uri.getCredentialsProvider().resolveCredentials().block().getPassword()).containsExactly("s3cret".toCharArray());
        }
        assertThat(node.getHost()).isEqualTo("10.0.0.9");
        assertThat(node.getPort()).isEqualTo(7002);
    }

    @Test
    void shouldGiveTheMasterTheUsersCredentialsAndTheSentinelsTheirOwn() throws IOException {
        Path file = Files.writeString(dir.resolve("sentinel-password"), "sentinels-only\n");
        RedisEndpoint endpoint = RedisEndpoint.from(Settings.of(Map.of(), Map.of(
                RedisEndpoint.URL, "rediss-sentinel://alice:s3cret@s1:26379,s2:26380?sentinelMasterId=readmark",
                RedisEndpoint.SENTINEL_PASSWORD_FILE, file.toString(), RedisEndpoint.TLS_VERIFY, "ca")));

        RedisURI uri = endpoint.seeds().getFirst();

        assertThat(endpoint.isSentinel()).isTrue();
        assertThat(endpoint.isCluster()).isFalse();
        assertThat(uri.getSentinelMasterId()).isEqualTo("readmark");
        assertThat(uri.getCredentialsProvider().resolveCredentials().block().getUsername()).isEqualTo("alice");
        assertThat(uri.getCredentialsProvider().resolveCredentials().block().getPassword()).containsExactly("s3cret".toCharArray());
        assertThat(uri.getSentinels()).extracting(RedisURI::getHost).containsExactly("s1", "s2");
        for (RedisURI sentinel : uri.getSentinels()) {
            assertThat(sentinel.isSsl()).isTrue();
            assertThat(sentinel.getVerifyMode()).isEqualTo(SslVerifyMode.CA);
            assertThat(sentinel.getCredentialsProvider().resolveCredentials().block().getPassword())
                    .containsExactly("sentinels-only".toCharArray());
        }
        assertThat(endpoint.toString()).doesNotContain("s3cret").doesNotContain("sentinels-only");
    }

    @Test
    void shouldRefuseASentinelUrlWithoutAMasterAndASentinelPasswordWithoutSentinels() {
        assertThatThrownBy(() -> RedisEndpoint.of("redis-sentinel://bob:hunter2@s1:26379,s2:26379"))
                .hasMessageContaining("sentinelMasterId").hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> RedisEndpoint.from(Settings.of(Map.of(), Map.of(RedisEndpoint.URL, "redis://h:6379",
                RedisEndpoint.SENTINEL_PASSWORD, "x")))).hasMessageContaining(RedisEndpoint.SENTINEL_PASSWORD);
        assertThatThrownBy(() -> RedisEndpoint.from(Settings.of(Map.of(), Map.of(RedisEndpoint.URL, "redis-sentinel://s:1?sentinelMasterId=m",
                RedisEndpoint.SENTINEL_PASSWORD, "x", RedisEndpoint.SENTINEL_PASSWORD_FILE, "/nowhere"))))
                .hasMessageContaining(RedisEndpoint.SENTINEL_PASSWORD_FILE);
    }

    @Test
    void shouldTakeThePasswordFromItsFileOverTheUrlAndNeverPrintIt() throws IOException {
        Path file = Files.writeString(dir.resolve("password"), "from-file\n");
        RedisEndpoint endpoint = RedisEndpoint.from(Settings.of(Map.of(), Map.of(RedisEndpoint.URL, "rediss://bob:in-url@h:6380",
                RedisEndpoint.USERNAME, "carol", RedisEndpoint.PASSWORD_FILE, file.toString(), RedisEndpoint.TLS_VERIFY, "ca")));

        RedisURI uri = endpoint.seeds().getFirst();

        assertThat(uri.getCredentialsProvider().resolveCredentials().block().getUsername()).isEqualTo("carol");
        assertThat(uri.getCredentialsProvider().resolveCredentials().block().getPassword()).containsExactly("from-file".toCharArray());
        assertThat(uri.getVerifyMode()).isEqualTo(SslVerifyMode.CA);
        assertThat(endpoint.toString()).doesNotContain("in-url").doesNotContain("from-file").contains("rediss://bob:***@h:6380");
    }

    @Test
    void shouldRefuseTwoPasswordsAUserWithoutOneAndAnUnknownVerifyMode() {
        assertThatThrownBy(() -> RedisEndpoint.from(Settings.of(Map.of(), Map.of(RedisEndpoint.PASSWORD, "a",
                RedisEndpoint.PASSWORD_FILE, "/nowhere")))).hasMessageContaining(RedisEndpoint.PASSWORD_FILE);
        assertThatThrownBy(() -> RedisEndpoint.from(Settings.of(Map.of(), Map.of(RedisEndpoint.USERNAME, "dave"))))
                .hasMessageContaining(RedisEndpoint.USERNAME);
        assertThatThrownBy(() -> RedisEndpoint.from(Settings.of(Map.of(), Map.of(RedisEndpoint.TLS_VERIFY, "none"))))
                .hasMessageContaining(RedisEndpoint.TLS_VERIFY);
    }

    @Test
    void shouldRefuseTlsSettingsForAUrlWithoutTls() {
        for (String setting : new String[] {RedisEndpoint.TLS_CA_FILE, RedisEndpoint.TLS_VERIFY}) {
            assertThatThrownBy(() -> RedisEndpoint.from(Settings.of(Map.of(), Map.of(RedisEndpoint.URL, "redis-cluster://h:7000",
                    setting, setting.equals(RedisEndpoint.TLS_VERIFY) ? "full" : "/ca.pem")))).hasMessageContaining("rediss://");
        }
        assertThat(RedisEndpoint.from(Settings.of(Map.of(), Map.of(RedisEndpoint.URL, "rediss-cluster://h:7000",
                RedisEndpoint.TLS_VERIFY, "full"))).seeds().getFirst().isSsl()).isTrue();
    }

    @Test
    void shouldNotQuoteThePasswordOfAUrlThatDoesNotParse() {
        assertThatThrownBy(() -> RedisEndpoint.of("ftp://eve:hunter2@h:1")).hasMessageContaining(RedisEndpoint.URL)
                .hasMessageNotContaining("hunter2");
    }
}
