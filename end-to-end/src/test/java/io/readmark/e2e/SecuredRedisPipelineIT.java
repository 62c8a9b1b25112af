package io.readmark.e2e;

import io.readmark.infra.SecuredRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole pipeline, as {@code readmark local} runs it, on a TLS-only Redis that lets in only the documented
 * processor user, its password in a file: posts, reads and notices reach Redis through every kind of script, and
 * both the processor and the view API report ready.
 */
class SecuredRedisPipelineIT {

    private static final String PASSWORD = "processor-secret-5a9e";

    private static SecuredRedis redis;
    private static PipelineFixture pipeline;

    @BeforeAll
    static void startPipeline() throws Exception {
        redis = SecuredRedis.start(Map.of("readmark-processor", PASSWORD));
        Path password = Files.writeString(Files.createTempFile("readmark-redis", ".password"), PASSWORD);
        password.toFile().deleteOnExit();
        pipeline = PipelineFixture.start("secured", Map.of("REDIS_URL", redis.url(), "READMARK_REDIS_PREFIX", "rm",
                "REDIS_USERNAME", "readmark-processor", "REDIS_PASSWORD_FILE", password.toString(),
                "REDIS_TLS_CA_FILE", redis.caFile().toString()));
    }

    @AfterAll
    static void stopAll() {
        if (pipeline != null) pipeline.close();
        if (redis != null) redis.close();
    }

    @Test
    void shouldApplyPostsReadsAndNoticesThroughTheSecuredRedis() throws Exception {
        long user = pipeline.newId(), author = pipeline.newId(), blog = pipeline.newId(), notice = pipeline.newId();
        Instant at = Instant.parse("2026-01-01T12:00:00Z");

        pipeline.post(pipeline.followed(user, author), pipeline.published(blog, author, at));
        pipeline.awaitUnread(user, author, blog);
        pipeline.post(pipeline.read(user, blog, author, at.plusSeconds(60)));
        pipeline.awaitUnread(user, author);
        pipeline.produce(new PipelineFixture.WireEvent(pipeline.stack().topics().noticeEvents().name(), Long.toString(notice), """
                {"type":"NoticeSent","eventId":"s-%d","noticeId":%d,"recipientIds":[%d],"sentAt":"2026-01-01T12:00:00Z"}"""
                .formatted(notice, notice, user)));
        PipelineFixture.eventually(() -> assertThat(pipeline.get("/v1/users/" + user + "/unread").get("notices").asLong()).isEqualTo(1));

        assertThat(pipeline.processor("/health/ready").statusCode()).isEqualTo(200);
        assertThat(pipeline.viewManagement("/health/ready").statusCode()).isEqualTo(200);
    }
}
