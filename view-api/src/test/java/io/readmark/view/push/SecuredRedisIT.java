package io.readmark.view.push;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.ScriptOutputType;
import io.readmark.infra.SecuredRedis;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.redis.RedisEndpoint;
import io.readmark.view.SseClient;
import io.readmark.view.ViewApiConfig;
import io.readmark.view.ViewApiFixture;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static io.readmark.view.push.Pushes.expectPush;
import static io.readmark.view.push.Pushes.path;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The view API and the writer on a Redis that speaks TLS only and lets in only the ACL users docs/CONFIGURATION.md
 * documents: each works under its own user's rules, and the view API's user can read and subscribe but not write.
 */
class SecuredRedisIT {

    private static final String PROCESSOR = "readmark-processor";
    private static final String VIEW = "readmark-view";
    private static final String PROCESSOR_PASSWORD = "processor-secret-4f1c";
    private static final String VIEW_PASSWORD = "view-secret-93ab";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @AutoClose
    private static final SecuredRedis REDIS = SecuredRedis.start(Map.of(PROCESSOR, PROCESSOR_PASSWORD, VIEW, VIEW_PASSWORD));

    @TempDir
    Path dir;

    private static RedisEndpoint as(String user, String password) {
        return RedisEndpoint.of(REDIS.url(), user, password).trusting(REDIS.caFile());
    }

    @Test
    void shouldReadCountsAndPushChangesOverTlsAsTheViewUserWithThePasswordFromAFile() throws IOException {
        Path password = Files.writeString(dir.resolve("view-password"), VIEW_PASSWORD + "\n");
        try (ViewApiFixture view = ViewApiFixture.on(REDIS.url(), Map.of(ViewApiConfig.REDIS_PREFIX, "rm",
                RedisEndpoint.USERNAME, VIEW, RedisEndpoint.PASSWORD_FILE, password.toString(),
                RedisEndpoint.TLS_CA_FILE, REDIS.caFile().toString()))) {
            view.writingAs(as(PROCESSOR, PROCESSOR_PASSWORD));
            view.deliver(11, 7, 1);
            try (SseClient stream = view.stream(path(11), Map.of())) {
                assertThat(stream.status).as(stream.body()).isEqualTo(200);
                stream.nextEvent("counts");
                view.deliver(11, 7, 2);
                expectPush(view, stream, 11, "[{\"kind\":\"delivered\",\"authorId\":7,\"blogId\":2}]");
            }
            assertThat(view.management("/health/ready").statusCode()).isEqualTo(200);
            assertThat(view.config.toString()).doesNotContain(VIEW_PASSWORD);
        }
    }

    @Test
    void shouldRefuseAWrongPasswordNoPasswordAndPlainConnections() {
        assertThatThrownBy(() -> RedisConnections.connect(as(VIEW, "wrong"), TIMEOUT, false).close())
                .isInstanceOf(RedisConnectionException.class).rootCause().hasMessageContaining("WRONGPASS");
        try (RedisConnections anonymous = RedisConnections.connect(RedisEndpoint.of(REDIS.url()).trusting(REDIS.caFile()), TIMEOUT, false)) {
            assertThatThrownBy(() -> anonymous.shared().sync().get("rm:{u:11}:live")).hasMessageContaining("NOAUTH");
        } catch (RedisConnectionException e) {
            assertThat(e).rootCause().hasMessageContaining("NOAUTH");
        }
        String plain = REDIS.url().replace("rediss://", "redis://");
        assertThatThrownBy(() -> RedisConnections.connect(RedisEndpoint.of(plain, VIEW, VIEW_PASSWORD), TIMEOUT, false).close())
                .isInstanceOf(RedisConnectionException.class);
        // TLS with a CA the JDK does not trust: the server's certificate is refused.
        assertThatThrownBy(() -> RedisConnections.connect(RedisEndpoint.of(REDIS.url(), VIEW, VIEW_PASSWORD), TIMEOUT, false).close())
                .isInstanceOf(RedisConnectionException.class);
    }

    @Test
    void shouldLetTheViewUserReadSubscribeAndMarkStreamsLiveButWriteNothingElse() {
        try (RedisConnections view = RedisConnections.connect(as(VIEW, VIEW_PASSWORD), TIMEOUT, false)) {
            var redis = view.shared().sync();
            assertThat(redis.hgetall("rm:{u:12}:counts")).isEmpty();
            assertThat(redis.set("rm:{u:12}:live", "1")).isEqualTo("OK");
            try (var pubSub = view.connectPubSub(view.pubSubNode("rm:{u:12}:changes"))) {
                pubSub.sync().ssubscribe("rm:{u:12}:changes");
            }

            assertThatThrownBy(redis::flushall).isInstanceOf(RedisCommandExecutionException.class).hasMessageContaining("NOPERM");
            assertThatThrownBy(() -> redis.del("rm:{u:12}:counts")).hasMessageContaining("NOPERM");
            assertThatThrownBy(() -> redis.set("rm:{u:12}:counts", "x")).hasMessageContaining("NOPERM");
            assertThatThrownBy(() -> redis.hset("rm:{u:12}:counts", "7", "1")).hasMessageContaining("NOPERM");
            // A script runs under its caller's rules: one that writes fails whatever the view API's user runs it with.
            assertThatThrownBy(() -> redis.eval("return redis.call('HINCRBY', KEYS[1], '7', 1)", ScriptOutputType.INTEGER,
                    "rm:{u:12}:counts")).hasMessageContaining("user executing the script can't run this command");
            assertThatThrownBy(() -> redis.eval("return redis.call('SET', KEYS[1], 'x')", ScriptOutputType.STATUS,
                    "rm:{u:12}:counts")).hasMessageContaining("user executing the script can't access");
        }
    }
}
