package io.readmark.view.push;

import io.lettuce.core.RedisException;
import io.readmark.infra.DocumentedRedisUsers;
import io.readmark.infra.EmbeddedRedisCluster;
import io.readmark.infra.TlsCertificates;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.redis.RedisEndpoint;
import io.readmark.view.SseClient;
import io.readmark.view.ViewApiConfig;
import io.readmark.view.ViewApiFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static io.readmark.view.push.Pushes.expectPush;
import static io.readmark.view.push.Pushes.path;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The view API and the writer on a Redis Cluster, over TLS, that lets in only the documented ACL users: credentials and
 * TLS reach every master, those Lettuce learns from the cluster and the Pub/Sub connections to each channel's master
 * alike.
 */
class SecuredRedisClusterIT {

    private static final String PROCESSOR = "readmark-processor";
    private static final String VIEW = "readmark-view";
    private static final String PROCESSOR_PASSWORD = "processor-secret-77d0";
    private static final String VIEW_PASSWORD = "view-secret-0c5e";

    private static final TlsCertificates CERTIFICATES = TlsCertificates.create();
    private static final EmbeddedRedisCluster CLUSTER = EmbeddedRedisCluster.startTls(3, CERTIFICATES);

    static {
        CLUSTER.requireUsers(DocumentedRedisUsers.rules(Map.of(PROCESSOR, PROCESSOR_PASSWORD, VIEW, VIEW_PASSWORD)));
    }

    @AfterAll
    static void stop() {
        CLUSTER.close();
        CERTIFICATES.close();
    }

    private static RedisEndpoint as(String user, String password) {
        return RedisEndpoint.of(CLUSTER.tlsUrl(), user, password).trusting(CERTIFICATES.caFile());
    }

    @Test
    void shouldPushChangesFromEveryMasterToTheViewUserNamedInTheUrl() {
        // Only the first seed is reachable as given; the other masters are learned from the cluster.
        String url = CLUSTER.tlsUrl().replaceFirst("//", "//" + VIEW + ":" + VIEW_PASSWORD + "@").replaceFirst(",.*", "");
        try (ViewApiFixture view = ViewApiFixture.on(url, Map.of(ViewApiConfig.REDIS_PREFIX, "rm",
                RedisEndpoint.TLS_CA_FILE, CERTIFICATES.caFile().toString()))) {
            view.writingAs(as(PROCESSOR, PROCESSOR_PASSWORD));
            // Users whose slots are spread over the masters.
            for (long user = 601; user <= 606; user++) {
                try (SseClient stream = view.stream(path(user), Map.of())) {
                    assertThat(stream.status).as(stream.body()).isEqualTo(200);
                    stream.nextEvent("counts");
                    view.deliver(user, 7, 1);
                    expectPush(view, stream, user, "[{\"kind\":\"delivered\",\"authorId\":7,\"blogId\":1}]");
                }
            }
            assertThat(view.config.toString()).doesNotContain(VIEW_PASSWORD);
        }
    }

    @Test
    void shouldRefuseAConnectionWithoutTheUserAndTheViewUsersWrites() {
        assertThatThrownBy(() -> RedisConnections.connect(RedisEndpoint.of(CLUSTER.tlsUrl()).trusting(CERTIFICATES.caFile()),
                Duration.ofSeconds(5), false).close()).isInstanceOf(RedisException.class);
        try (RedisConnections view = RedisConnections.connect(as(VIEW, VIEW_PASSWORD), Duration.ofSeconds(5), false)) {
            for (long user = 601; user <= 606; user++) {
                String counts = "rm:{u:" + user + "}:counts";
                assertThat(view.shared().sync().hgetall(counts)).isNotNull();
                assertThatThrownBy(() -> view.shared().sync().del(counts)).hasMessageContaining("NOPERM");
            }
        }
    }
}
