package io.readmark.e2e;

import io.readmark.common.config.Settings;
import io.readmark.infra.TestInfrastructure;
import io.readmark.producer.ProducerApi;
import io.readmark.producer.ProducerApiConfig;
import io.readmark.view.ViewApi;
import io.readmark.view.push.StreamSettings;
import io.readmark.view.ViewApiConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.readmark.e2e.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both APIs against their served OpenAPI documents: every route the server has is documented, and every documented
 * operation and status is produced by a real request here and matches its documented media type, headers and body.
 * The 503s come from a second pair of APIs whose Kafka and Redis do not exist.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiContractIT {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Set<String> exercised = new TreeSet<>();
    private PipelineFixture pipeline;
    private ProducerApi producerWithoutKafka;
    private ViewApi viewWithoutRedis;
    private ApiContract producer;
    private ApiContract view;
    private String producerUrl;
    private String viewUrl;

    @BeforeAll
    void start() throws Exception {
        pipeline = PipelineFixture.start("contract", TestTokens.SETTINGS);
        producerUrl = pipeline.stack().producerApiUrl();
        viewUrl = pipeline.stack().viewApiUrl();
        producer = ApiContract.fetch(http, producerUrl);
        view = ApiContract.fetch(http, viewUrl);

        Map<String, String> down = new HashMap<>(TestTokens.SETTINGS);
        down.putAll(Map.of("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + unusedPort(), "PRODUCER_API_PORT", "0",
                "PRODUCER_API_ACK_TIMEOUT", "PT1S", "REDIS_URL", "redis://127.0.0.1:" + unusedPort(), "VIEW_API_PORT", "0",
                "VIEW_API_REDIS_TIMEOUT", "PT0.5S", "PRODUCER_API_MANAGEMENT_PORT", "0", "VIEW_API_MANAGEMENT_PORT", "0"));
        Settings settings = Settings.of(Map.of(), down);
        producerWithoutKafka = ProducerApi.start(ProducerApiConfig.from(settings));
        viewWithoutRedis = ViewApi.start(ViewApiConfig.from(settings));
    }

    @AfterAll
    void stop() {
        if (viewWithoutRedis != null) viewWithoutRedis.close();
        if (producerWithoutKafka != null) producerWithoutKafka.close();
        if (pipeline != null) pipeline.close();
    }

    @Test
    void shouldDocumentEveryRouteOfBothServers() {
        assertThat(producer.operations()).containsExactlyInAnyOrderElementsOf(pipeline.stack().producerApiRoutes());
        assertThat(view.operations()).containsExactlyInAnyOrderElementsOf(pipeline.stack().viewApiRoutes());
    }

    @Test
    void shouldAnswerEveryProducerOperationAsDocumented() throws Exception {
        String service = TestTokens.publisher();
        String event = """
                {"type":"Followed","eventId":"contract-1","followerId":11,"authorId":12,"at":"2026-01-01T00:00:00Z"}""";
        String events = "/v1/events";
        check(producer, producerUrl, "POST", events, events, service, "application/json", event, 202);
        check(producer, producerUrl, "POST", events, events, service, "application/json", "{\"type\":\"Followed\"}", 400);
        check(producer, producerUrl, "POST", events, events, service, "application/json", "x".repeat(70_000), 413);
        check(producer, producerUrl, "POST", events, events, service, "text/plain", event, 415);
        check(producer, producerUrl, "POST", events, events, null, "application/json", event, 401);
        check(producer, producerUrl, "POST", events, events, TestTokens.producerUser(11), "application/json", event, 403);
        check(producer, producerUrl, "POST", events, events, TestTokens.reader(), "application/json", event, 401);
        check(producer, producerUrl, "POST", events, events, TestTokens.producerReads(11), "application/json", event, 403);

        String batch = "/v1/events:batch";
        String mixed = "[" + event + ",{\"type\":\"Nope\"}]";
        check(producer, producerUrl, "POST", batch, batch, service, "application/json", mixed, 200);
        check(producer, producerUrl, "POST", batch, batch, service, "application/x-ndjson", event + "\n" + event + "\n", 200);
        check(producer, producerUrl, "POST", batch, batch, service, "application/json", "[]", 400);
        check(producer, producerUrl, "POST", batch, batch, service, "application/json", "[" + (event + ",").repeat(1100) + event + "]", 413);
        check(producer, producerUrl, "POST", batch, batch, service, "text/csv", mixed, 415);
        check(producer, producerUrl, "POST", batch, batch, TestTokens.expired(), "application/json", mixed, 401);
        check(producer, producerUrl, "POST", batch, batch, TestTokens.producerUser(11), "application/json", mixed, 403);
        String ownRead = """
                {"type":"AllRead","eventId":"contract-2","userId":11,"readAt":"2026-01-01T00:00:00Z"}""";
        check(producer, producerUrl, "POST", batch, batch, TestTokens.producerReads(11), "application/json",
                "[" + ownRead + "," + event + "]", 200);

        operations(producer, producerUrl, pipeline.stack().producerManagementUrl());

        String down = "http://localhost:" + producerWithoutKafka.port();
        check(producer, down, "POST", events, events, service, "application/json", event, 503);
        check(producer, down, "POST", batch, batch, service, "application/json", "[" + event + "]", 503);
        assertThat(call("http://localhost:" + producerWithoutKafka.managementPort(), "GET", "/health/ready", null, null, null)
                .statusCode()).isEqualTo(503);

        assertEveryDocumentedStatusExercised(producer);
    }

    @Test
    void shouldAnswerEveryViewOperationAsDocumented() throws Exception {
        long user = pipeline.newId();
        long author = pipeline.newId();
        long blog = pipeline.newId();
        pipeline.produce(pipeline.followed(user, author));
        pipeline.produce(pipeline.published(blog, author, Instant.parse("2026-01-02T00:00:00Z")));
        String service = TestTokens.reader();
        String own = TestTokens.user(user);
        String other = TestTokens.user(user + 1);
        long notice = pipeline.newId();
        pipeline.produce(new PipelineFixture.WireEvent(pipeline.stack().topics().noticeEvents().name(), Long.toString(notice), """
                {"type":"NoticeSent","eventId":"contract-%d","noticeId":%d,"recipientIds":[%d],"sentAt":"2026-01-02T00:00:00Z"}"""
                .formatted(notice, notice, user)));
        PipelineFixture.eventually(() -> assertThat(call(viewUrl, "GET", "/v1/users/" + user + "/unread/items", own, null, null).body())
                .contains("\"blogId\":" + blog));
        PipelineFixture.eventually(() -> assertThat(call(viewUrl, "GET", "/v1/users/" + user + "/unread", own, null, null).body())
                .contains("\"notices\":1"));

        String counts = "/v1/users/{userId}/unread";
        check(view, viewUrl, "GET", counts, "/v1/users/" + user + "/unread", own, null, null, 200);
        check(view, viewUrl, "GET", counts, "/v1/users/" + user + "/unread?cap=99", service, null, null, 200);
        String tag = call(viewUrl, "GET", "/v1/users/" + user + "/unread", own, null, null).headers().firstValue("ETag").orElseThrow();
        HttpResponse<String> notModified = http.send(HttpRequest.newBuilder(URI.create(viewUrl + "/v1/users/" + user + "/unread"))
                .header("Authorization", bearer(own)).header("If-None-Match", tag).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(notModified.statusCode()).isEqualTo(304);
        view.check("GET", counts, notModified);
        exercised.add("GET " + counts + " 304");
        check(view, viewUrl, "GET", counts, "/v1/users/" + user + "/unread?cap=0", own, null, null, 400);
        check(view, viewUrl, "GET", counts, "/v1/users/-1/unread", service, null, null, 400);
        check(view, viewUrl, "GET", counts, "/v1/users/" + user + "/unread", null, null, null, 401);
        check(view, viewUrl, "GET", counts, "/v1/users/" + user + "/unread", other, null, null, 403);
        check(view, viewUrl, "GET", counts, "/v1/users/" + user + "/unread", TestTokens.publisher(), null, null, 401);

        String items = "/v1/users/{userId}/unread/items";
        check(view, viewUrl, "GET", items, "/v1/users/" + user + "/unread/items?limit=1", own, null, null, 200);
        check(view, viewUrl, "GET", items, "/v1/users/" + user + "/unread/items?cursor=bogus", own, null, null, 400);
        check(view, viewUrl, "GET", items, "/v1/users/" + user + "/unread/items", "not-a-jwt", null, null, 401);
        check(view, viewUrl, "GET", items, "/v1/users/" + user + "/unread/items", other, null, null, 403);

        String byAuthor = "/v1/users/{userId}/unread/{authorId}";
        check(view, viewUrl, "GET", byAuthor, "/v1/users/" + user + "/unread/" + author, own, null, null, 200);
        check(view, viewUrl, "GET", byAuthor, "/v1/users/" + user + "/unread/" + author + "?limit=0", own, null, null, 400);
        check(view, viewUrl, "GET", byAuthor, "/v1/users/" + user + "/unread/" + author, TestTokens.expired(), null, null, 401);
        check(view, viewUrl, "GET", byAuthor, "/v1/users/" + user + "/unread/" + author, other, null, null, 403);

        String blogState = "/v1/users/{userId}/blogs/{blogId}";
        check(view, viewUrl, "GET", blogState, "/v1/users/" + user + "/blogs/" + blog + "?authorId=" + author, own, null, null, 200);
        check(view, viewUrl, "GET", blogState, "/v1/users/" + user + "/blogs/" + blog, own, null, null, 400);
        check(view, viewUrl, "GET", blogState, "/v1/users/" + user + "/blogs/" + blog + "?authorId=" + author, null, null, null, 401);
        check(view, viewUrl, "GET", blogState, "/v1/users/" + user + "/blogs/" + blog + "?authorId=" + author, other, null, null, 403);

        String notices = "/v1/users/{userId}/notices";
        check(view, viewUrl, "GET", notices, "/v1/users/" + user + "/notices?limit=1", own, null, null, 200);
        check(view, viewUrl, "GET", notices, "/v1/users/" + user + "/notices?cursor=bogus", own, null, null, 400);
        check(view, viewUrl, "GET", notices, "/v1/users/" + user + "/notices", null, null, null, 401);
        check(view, viewUrl, "GET", notices, "/v1/users/" + user + "/notices", other, null, null, 403);
        String noticeState = "/v1/users/{userId}/notices/{noticeId}";
        check(view, viewUrl, "GET", noticeState, "/v1/users/" + user + "/notices/" + notice, own, null, null, 200);
        check(view, viewUrl, "GET", noticeState, "/v1/users/" + user + "/notices/0", own, null, null, 400);
        check(view, viewUrl, "GET", noticeState, "/v1/users/" + user + "/notices/" + notice, TestTokens.expired(), null, null, 401);
        check(view, viewUrl, "GET", noticeState, "/v1/users/" + user + "/notices/" + notice, other, null, null, 403);

        String stream = "/v1/users/{userId}/unread/stream";
        String streamPath = "/v1/users/" + user + "/unread/stream";
        List<InputStream> open = new ArrayList<>();
        try {
            for (int i = 0; i < StreamSettings.DEFAULTS.perUser(); i++) open.add(openStream(view, viewUrl, stream, streamPath, own));
            check(view, viewUrl, "GET", stream, streamPath, own, null, null, 429);
        } finally {
            for (InputStream body : open) body.close();
        }
        check(view, viewUrl, "GET", stream, "/v1/users/-1/unread/stream", service, null, null, 400);
        check(view, viewUrl, "GET", stream, streamPath, null, null, null, 401);
        check(view, viewUrl, "GET", stream, streamPath, other, null, null, 403);

        operations(view, viewUrl, pipeline.stack().viewManagementUrl());

        String down = "http://localhost:" + viewWithoutRedis.port();
        check(view, down, "GET", counts, "/v1/users/" + user + "/unread", service, null, null, 503);
        check(view, down, "GET", items, "/v1/users/" + user + "/unread/items", service, null, null, 503);
        check(view, down, "GET", byAuthor, "/v1/users/" + user + "/unread/" + author, service, null, null, 503);
        check(view, down, "GET", blogState, "/v1/users/" + user + "/blogs/" + blog + "?authorId=" + author, service, null, null, 503);
        check(view, down, "GET", notices, "/v1/users/" + user + "/notices", service, null, null, 503);
        check(view, down, "GET", noticeState, "/v1/users/" + user + "/notices/" + notice, service, null, null, 503);
        check(view, down, "GET", stream, streamPath, service, null, null, 503);
        assertThat(call("http://localhost:" + viewWithoutRedis.managementPort(), "GET", "/health/ready", null, null, null)
                .statusCode()).isEqualTo(503);

        assertEveryDocumentedStatusExercised(view);
    }

    /** The document, public on the API port; health and metrics only on the management port. */
    private void operations(ApiContract contract, String baseUrl, String managementUrl) throws Exception {
        check(contract, baseUrl, "GET", "/openapi.json", "/openapi.json", null, null, null, 200);
        for (String path : new String[]{"/health/live", "/health/ready", "/metrics"}) {
            assertThat(call(baseUrl, "GET", path, null, null, null).statusCode()).as(path).isEqualTo(404);
            assertThat(call(managementUrl, "GET", path, null, null, null).statusCode()).as(path).isEqualTo(200);
        }
    }

    private void assertEveryDocumentedStatusExercised(ApiContract contract) {
        assertThat(exercised).as("documented statuses without a request in this test").containsAll(contract.statuses());
    }

    private void check(ApiContract contract, String baseUrl, String method, String template, String path, String token,
                       String contentType, String body, int expectedStatus) throws Exception {
        HttpResponse<String> response = call(baseUrl, method, path, token, contentType, body);
        assertThat(response.statusCode()).as(method + " " + path + ": " + response.body()).isEqualTo(expectedStatus);
        contract.check(method, template, response);
        exercised.add(method + " " + template + " " + expectedStatus);
    }

    /** An event stream checked as far as its head: the body never ends, so it is handed back open. */
    private InputStream openStream(ApiContract contract, String baseUrl, String template, String path, String token) throws Exception {
        HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Authorization", bearer(token)).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).as("GET " + path).isEqualTo(200);
        contract.check("GET", template, response);
        exercised.add("GET " + template + " 200");
        return response.body();
    }

    private HttpResponse<String> call(String baseUrl, String method, String path, String token, String contentType, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(15))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) request.header("Authorization", bearer(token));
        if (contentType != null) request.header("Content-Type", contentType);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int unusedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
