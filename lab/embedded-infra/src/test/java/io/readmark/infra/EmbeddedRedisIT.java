package io.readmark.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

class EmbeddedRedisIT {

    @Test
    void servesCommandsOverLettuceAndStopsOnClose() {
        EmbeddedRedis redis = EmbeddedRedis.start(0);
        assertThat(redis.url()).isEqualTo("redis://127.0.0.1:" + redis.port());
        RedisClient client = RedisClient.create(redis.url());
        try (redis; StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> commands = connection.sync();
            assertThat(commands.ping()).isEqualTo("PONG");
            assertThat(commands.set("unread:user-1", "3")).isEqualTo("OK");
            assertThat(commands.get("unread:user-1")).isEqualTo("3");
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
        assertThat(redis.isRunning()).isFalse();
        assertThat(RedisPing.ping(redis.port(), Duration.ofMillis(200))).isFalse();
        assertThat(LocalPorts.isFree(redis.port())).isTrue();
    }

    @Test
    void servesRawRespOverAPlainSocket() throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0);
             Socket socket = new Socket(InetAddress.getLoopbackAddress(), redis.port())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            out.write("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            assertThat(in.readLine()).isEqualTo("+OK");
            assertThat(in.readLine()).isEqualTo("$1");
            assertThat(in.readLine()).isEqualTo("v");
        }
    }

    @Test
    void fallsBackToTheBinaryBundledWithEmbeddedRedis() {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0, RedisBinary.bundled())) {
            assertThat(RedisPing.ping(redis.port(), Duration.ofSeconds(1))).isTrue();
        }
    }

    @Test
    void failsClearlyWhenThePortIsTaken() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> EmbeddedRedis.start(port))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("EmbeddedRedis cannot start: port " + port
                            + " on 127.0.0.1 is already in use");
        }
    }

    @Test
    void failsClearlyWhenAnotherRedisHoldsThePort() {
        try (EmbeddedRedis first = EmbeddedRedis.start(0)) {
            assertThatThrownBy(() -> EmbeddedRedis.start(first.port()))
                    .hasMessageContaining("port " + first.port())
                    .hasMessageContaining("already in use");
            assertThat(first.isRunning()).isTrue();
        }
    }

    @Test
    void stopAndRestartOnTheSamePortForOutageTests() {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0)) {
            RedisClient client = RedisClient.create(redis.url());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                RedisCommands<String, String> commands = connection.sync();
                commands.set("k", "before");

                redis.stop();
                assertThat(redis.isRunning()).isFalse();
                assertThat(RedisPing.ping(redis.port(), Duration.ofMillis(200))).isFalse();

                redis.restart();
                assertThat(redis.isRunning()).isTrue();
                // Lettuce reconnects by itself; no persistence, so the old value is gone.
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(commands.ping()).isEqualTo("PONG"));
                assertThat(commands.get("k")).isNull();
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    @Test
    void keepsEveryAcknowledgedWriteAcrossAStopInPersistentMode() {
        try (EmbeddedRedis redis = EmbeddedRedis.startPersistent(0)) {
            RedisClient client = RedisClient.create(redis.url());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                RedisCommands<String, String> commands = connection.sync();
                commands.set("k", "before");
                commands.zadd("z", 1.0, "a");

                redis.stop();
                assertThat(RedisPing.ping(redis.port(), Duration.ofMillis(200))).isFalse();
                redis.restart();

                await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(commands.ping()).isEqualTo("PONG"));
                assertThat(commands.get("k")).isEqualTo("before");
                assertThat(commands.zscore("z", "a")).isEqualTo(1.0);
                assertThat(commands.configGet("appendfsync")).containsEntry("appendfsync", "always");
            } finally {
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            }
        }
    }

    @Test
    void closeIsIdempotentAndRestartAfterCloseIsRefused() {
        EmbeddedRedis redis = EmbeddedRedis.start(0);
        redis.close();
        redis.close();
        assertThatThrownBy(redis::restart).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }
}
