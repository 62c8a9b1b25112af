package io.readmark.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SslOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

/**
 * A Redis under the documented ACL lines, with an append-only file, keeps what a script wrote across a restart:
 * Redis replays the file as its default user and drops every transaction in it (a script's writes) that user may
 * not run.
 */
class DocumentedRedisUsersIT {

    @Test
    void keepsAScriptsWritesAcrossARestart() {
        List<String> args = new ArrayList<>(List.of("--appendonly", "yes"));
        args.addAll(DocumentedRedisUsers.serverArgs(Map.of("readmark-processor", "processor-secret")));
        // TLS, as SecuredRedis: the server's readiness is then read from its log, not from a PING the ACL refuses.
        try (TlsCertificates certificates = TlsCertificates.create();
             EmbeddedRedis redis = EmbeddedRedis.startTls(certificates, args)) {
            RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(redis.port()).withSsl(true)
                    .withAuthentication("readmark-processor", "processor-secret").build());
            client.setOptions(ClientOptions.builder()
                    .sslOptions(SslOptions.builder().trustManager(certificates.caFile().toFile()).build()).build());
            try {
                try (StatefulRedisConnection<String, String> connection = client.connect()) {
                    Long count = connection.sync().eval("redis.call('SET', KEYS[1], ARGV[1]) return redis.call('INCR', KEYS[2])",
                            ScriptOutputType.INTEGER, new String[] {"rm:{u:101}:latest", "rm:{u:101}:count"}, "1001");
                    assertThat(count).isEqualTo(1L);
                }
                redis.restart();
                try (StatefulRedisConnection<String, String> connection = client.connect()) {
                    assertThat(connection.sync().mget("rm:{u:101}:latest", "rm:{u:101}:count"))
                            .extracting(kv -> kv.getValueOrElse(null)).containsExactly("1001", "1");
                }
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }
}
