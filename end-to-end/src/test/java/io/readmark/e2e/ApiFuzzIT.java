package io.readmark.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.readmark.schemas.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;

import static io.readmark.e2e.TestTokens.bearer;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded random malformed requests against both APIs with authentication on: every one must be answered 4xx with a
 * problem+json body (never a 5xx, never a hang), and both APIs must still serve valid requests afterwards.
 * {@code -Dreadmark.fuzz.seed} and {@code -Dreadmark.fuzz.requests} (per API) reproduce or lengthen a run.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiFuzzIT {

    private static final long SEED = Long.getLong("readmark.fuzz.seed", 20261121L);
    private static final int REQUESTS = Integer.getInteger("readmark.fuzz.requests", 1_000);
    private static final List<String> ID_FIELDS = List.of("blogId", "authorId", "followerId", "userId", "noticeId");
    private static final List<String> BAD_IDS = List.of("0", "-1", "-9223372036854775808", "9223372036854775808",
            "99999999999999999999999999", "1e400", "1.5", "\"\"", "\"12a\"", "\"-3\"", "true", "null", "[]", "{}", "\"0x10\"");
    private static final List<String> BAD_INSTANTS = List.of("\"yesterday\"", "0", "-1", "1e400", "\"2026-13-01T00:00:00Z\"",
            "true", "[]", "null", "\"\"", "1700000000000");
    private static final String[] TEMPLATES = {
            "{\"type\":\"BlogPublished\",\"eventId\":\"f-%d\",\"blogId\":5,\"authorId\":6,\"publishedAt\":\"2026-01-01T00:00:00Z\"}",
            "{\"type\":\"BlogDeleted\",\"eventId\":\"f-%d\",\"blogId\":5,\"authorId\":6,\"deletedAt\":\"2026-01-01T00:00:00Z\"}",
            "{\"type\":\"Followed\",\"eventId\":\"f-%d\",\"followerId\":5,\"authorId\":6,\"at\":\"2026-01-01T00:00:00Z\"}",
            "{\"type\":\"Unfollowed\",\"eventId\":\"f-%d\",\"followerId\":5,\"authorId\":6,\"at\":\"2026-01-01T00:00:00Z\"}",
            "{\"type\":\"BlogRead\",\"eventId\":\"f-%d\",\"userId\":5,\"blogId\":7,\"authorId\":6,\"readAt\":\"2026-01-01T00:00:00Z\"}",
            "{\"type\":\"BlogsRead\",\"eventId\":\"f-%d\",\"userId\":5,\"blogs\":[{\"blogId\":7,\"authorId\":6}],\"readAt\":\"2026-01-01T00:00:00Z\"}",
            "{\"type\":\"AuthorReadAll\",\"eventId\":\"f-%d\",\"userId\":5,\"authorId\":6,\"readAt\":\"2026-01-01T00:00:00Z\"}",
            "{\"type\":\"AllRead\",\"eventId\":\"f-%d\",\"userId\":5,\"readAt\":\"2026-01-01T00:00:00Z\"}",
            "{\"type\":\"InboxSeen\",\"eventId\":\"f-%d\",\"userId\":5,\"seenAt\":\"2026-01-01T00:00:00Z\"}",
            "{\"type\":\"NoticePublished\",\"eventId\":\"f-%d\",\"noticeId\":8,\"audience\":\"staff\",\"publishedAt\":\"2026-01-01T00:00:00Z\"}",
            "{\"type\":\"NoticeWithdrawn\",\"eventId\":\"f-%d\",\"noticeId\":8,\"audience\":\"staff\",\"withdrawnAt\":\"2026-01-01T00:00:00Z\"}",
            "{\"type\":\"AudienceJoined\",\"eventId\":\"f-%d\",\"userId\":5,\"audience\":\"staff\",\"at\":\"2026-01-01T00:00:00Z\"}",
            "{\"type\":\"AudienceLeft\",\"eventId\":\"f-%d\",\"userId\":5,\"audience\":\"staff\",\"at\":\"2026-01-01T00:00:00Z\"}",
            "{\"type\":\"NoticeSent\",\"eventId\":\"f-%d\",\"noticeId\":9,\"recipientIds\":[5,6],\"sentAt\":\"2026-01-01T00:00:00Z\"}",
            "{\"type\":\"NoticeRead\",\"eventId\":\"f-%d\",\"userId\":5,\"noticeId\":8,\"readAt\":\"2026-01-01T00:00:00Z\"}",
            "{\"type\":\"NoticesAllRead\",\"eventId\":\"f-%d\",\"userId\":5,\"readAt\":\"2026-01-01T00:00:00Z\"}"};

    /** One malformed request and what it is meant to break. */
    record Probe(String kind, String method, String path, String authorization, String contentType, byte[] body) {
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Random random = new Random(SEED);
    private final String service = TestTokens.publisher();
    private final String reader = TestTokens.reader();
    private PipelineFixture pipeline;

    @BeforeAll
    void start() throws Exception {
        pipeline = PipelineFixture.start("fuzz", TestTokens.SETTINGS);
    }

    @AfterAll
    void stop() {
        if (pipeline != null) pipeline.close();
    }

    @Test
    void shouldAnswerEveryMalformedRequestWith4xxAndKeepServing() throws Exception {
        Map<String, Integer> producerKinds = fire(pipeline.stack().producerApiUrl(), this::producerProbe);
        Map<String, Integer> viewKinds = fire(pipeline.stack().viewApiUrl(), this::viewProbe);
        System.out.printf("fuzz seed %d: producer-api %s, view-api %s%n", SEED, producerKinds, viewKinds);
        assertThat(producerKinds.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(REQUESTS);
        assertThat(viewKinds.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(REQUESTS);

        HttpResponse<String> accepted = send(pipeline.stack().producerApiUrl(), new Probe("valid", "POST", "/v1/events",
                bearer(service), "application/json", TEMPLATES[2].formatted(1).getBytes(StandardCharsets.UTF_8)));
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        HttpResponse<String> counts = send(pipeline.stack().viewApiUrl(), new Probe("valid", "GET", "/v1/users/5/unread",
                bearer(TestTokens.user(5)), null, null));
        assertThat(counts.statusCode()).as(counts.body()).isEqualTo(200);
    }

    /** Sends {@link #REQUESTS} probes; fails on the first answer that is not a 4xx problem. Returns counts by kind. */
    private Map<String, Integer> fire(String baseUrl, Supplier<Probe> probes) throws Exception {
        Map<String, Integer> kinds = new TreeMap<>();
        for (int i = 0; i < REQUESTS; i++) {
            Probe probe = probes.get();
            HttpResponse<String> response = send(baseUrl, probe);
            String what = "seed " + SEED + " #" + i + " " + probe.kind() + ": " + probe.method() + " " + probe.path()
                    + " -> " + response.statusCode() + " " + abbreviate(response.body());
            assertThat(response.statusCode()).as(what).isBetween(400, 499);
            assertThat(response.headers().firstValue("Content-Type")).as(what).hasValue("application/problem+json");
            JsonNode problem = Json.MAPPER.readTree(response.body());
            assertThat(problem.path("status").asInt()).as(what).isEqualTo(response.statusCode());
            assertThat(response.body()).as(what).doesNotContain("Exception").doesNotContain("\tat ");
            kinds.merge(probe.kind(), 1, Integer::sum);
        }
        return kinds;
    }

    // ---- producer API ---------------------------------------------------------------------------------------------

    private Probe producerProbe() {
        int kind = random.nextInt(10);
        return switch (kind) {
            case 0 -> post("bad JSON", "/v1/events", brokenJson());
            case 1 -> post("bad id", "/v1/events", withField(validEvent(), ID_FIELDS, pick(BAD_IDS)));
            case 2 -> post("bad instant", "/v1/events", withField(validEvent(), List.of("publishedAt", "deletedAt", "at", "readAt", "seenAt", "withdrawnAt", "sentAt"), pick(BAD_INSTANTS)));
            case 3 -> post("missing or unknown field value", "/v1/events", missingOrUnknown(validEvent()));
            case 4 -> random.nextBoolean()
                    ? new Probe("oversized body", "POST", "/v1/events", bearer(service), "application/json", oversized(65_537))
                    : new Probe("oversized body", "POST", "/v1/events:batch", bearer(service), "application/json", oversized(1_048_577));
            case 5 -> new Probe("bad token", "POST", random.nextBoolean() ? "/v1/events" : "/v1/events:batch",
                    badAuthorization(service, reader), "application/json", validEvent().getBytes(StandardCharsets.UTF_8));
            case 6 -> new Probe("bad content type", "POST", random.nextBoolean() ? "/v1/events" : "/v1/events:batch",
                    bearer(service), pick(List.of("text/plain", "application/xml", "multipart/form-data", "application/jsonx", "*/*")),
                    validEvent().getBytes(StandardCharsets.UTF_8));
            case 7 -> post("bad batch", "/v1/events:batch", pick(List.of("{}", "[]", "\"events\"", "17", "null", "[" + validEvent(),
                    "[" + validEvent() + ",", "{\"events\":[]}", brokenJson())));
            case 8 -> post("bad blog list", "/v1/events", badBlogList());
            default -> new Probe("bad method or path", pick(List.of("GET", "PUT", "DELETE", "PATCH")),
                    pick(List.of("/v1/events", "/v1/events:batch", "/v1/event", "/v2/events", "/v1/events/1", "/", "/v1/events:batches")),
                    bearer(service), "application/json", validEvent().getBytes(StandardCharsets.UTF_8));
        };
    }

    /** A {@code BlogsRead} whose list is empty, over 100 blogs, or holds one bad item among good ones. */
    private String badBlogList() {
        String good = "{\"blogId\":7,\"authorId\":6}";
        List<String> blogs = new ArrayList<>(Collections.nCopies(random.nextInt(4), good));
        switch (random.nextInt(3)) {
            case 0 -> blogs.clear();
            case 1 -> blogs.addAll(Collections.nCopies(101 + random.nextInt(900), good));
            default -> blogs.add(random.nextInt(blogs.size() + 1), pick(List.of("null", "7", "[]", "{}", "{\"blogId\":7}",
                    "{\"authorId\":6}", "{\"blogId\":" + pick(BAD_IDS) + ",\"authorId\":6}",
                    "{\"blogId\":7,\"authorId\":" + pick(BAD_IDS) + "}")));
        }
        return "{\"type\":\"BlogsRead\",\"eventId\":\"f-" + random.nextInt(1_000_000) + "\",\"userId\":5,\"blogs\":["
                + String.join(",", blogs) + "],\"readAt\":\"2026-01-01T00:00:00Z\"}";
    }

    private Probe post(String kind, String path, String body) {
        return new Probe(kind, "POST", path, bearer(service), "application/json", body.getBytes(StandardCharsets.UTF_8));
    }

    private String validEvent() {
        return TEMPLATES[random.nextInt(TEMPLATES.length)].formatted(random.nextInt(1_000_000));
    }

    private String brokenJson() {
        String valid = validEvent();
        return switch (random.nextInt(4)) {
            case 0 -> valid.substring(0, 1 + random.nextInt(valid.length() - 2));
            case 1 -> valid.replace(":", random.nextBoolean() ? "=" : "");
            case 2 -> new String(randomBytes(1 + random.nextInt(200)), StandardCharsets.ISO_8859_1);
            default -> valid.replace("{", "[");
        };
    }

    /** The event with one field of {@code candidates} that it has set to {@code value} (raw JSON). */
    private String withField(String event, List<String> candidates, String value) {
        ObjectNode json = parse(event);
        List<String> present = candidates.stream().filter(json::has).toList();
        String field = present.get(random.nextInt(present.size()));
        return json.toString().replace("\"" + field + "\":" + json.get(field).toString(), "\"" + field + "\":" + value);
    }

    private String missingOrUnknown(String event) {
        ObjectNode json = parse(event);
        if (random.nextBoolean()) {
            List<String> fields = iterable(json);
            json.remove(fields.get(random.nextInt(fields.size())));
        } else {
            json.put("type", pick(List.of("BlogPublish", "blogpublished", "", "Unknown", "BlogRead ")));
        }
        return json.toString();
    }

    private byte[] oversized(int bytes) {
        String event = validEvent();
        return ("[" + (event + ",").repeat(bytes / event.length() + 1) + event + "]").getBytes(StandardCharsets.UTF_8);
    }

    /** A bad Authorization value for the API whose valid token is {@code valid}, or one for {@code otherApi}. */
    private String badAuthorization(String valid, String otherApi) {
        return switch (random.nextInt(9)) {
            case 0 -> null;
            case 1 -> "Bearer";
            case 2 -> "Basic " + Base64.getEncoder().encodeToString("admin:admin".getBytes(StandardCharsets.UTF_8));
            case 3 -> "Bearer " + valid.substring(0, valid.length() - 3) + "abc";
            case 4 -> "Bearer " + TestTokens.expired();
            case 5 -> "Bearer " + Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8))
                    + "." + valid.split("\\.")[1] + ".";
            case 6 -> "Bearer " + "x".repeat(1 + random.nextInt(6_000));
            case 7 -> "Bearer " + otherApi;
            default -> "Bearer a.b.c";
        };
    }

    // ---- view API -------------------------------------------------------------------------------------------------

    private Probe viewProbe() {
        String user = bearer(TestTokens.user(5));
        String any = bearer(reader);
        return switch (random.nextInt(7)) {
            case 0 -> get("bad user id", "/v1/users/" + badPathId() + pick(List.of("/unread", "/unread/items", "/unread/6", "/blogs/7?authorId=6")), any);
            case 1 -> get("bad author or blog id", pick(List.of("/v1/users/5/unread/", "/v1/users/5/blogs/")) + badPathId()
                    + "?authorId=6", user);
            case 2 -> get("bad query", "/v1/users/5" + pick(List.of("/unread?cap=", "/unread/items?limit=", "/unread/6?limit=",
                    "/blogs/7?authorId=", "/unread/items?cursor=", "/unread/6?cursor=")) + badQueryValue(), user);
            case 3 -> get("bad token", "/v1/users/5/unread", badAuthorization(reader, service));
            case 4 -> get("other user", "/v1/users/" + (6 + random.nextInt(1_000)) + pick(List.of("/unread", "/unread/items", "/unread/6")), user);
            case 5 -> new Probe("bad method", pick(List.of("POST", "PUT", "DELETE", "PATCH")), "/v1/users/5/unread", user,
                    "application/json", "{}".getBytes(StandardCharsets.UTF_8));
            default -> get("unknown path", pick(List.of("/v1/users", "/v1/users/5", "/v1/users/5/unread/6/7", "/v2/users/5/unread",
                    "/v1/users/5/read", "/v1/users/5/blogs")), user);
        };
    }

    private Probe get(String kind, String path, String authorization) {
        return new Probe(kind, "GET", path, authorization, null, null);
    }

    private String badPathId() {
        return pick(List.of("0", "-1", "abc", "9223372036854775808", "99999999999999999999", "1.5", "1e3", "%20", "%00",
                URLEncoder.encode("ü" + random.nextInt(), StandardCharsets.UTF_8), "0x1F", "+5", "5%2F6"));
    }

    private String badQueryValue() {
        return pick(List.of("", "0", "-5", "abc", "1e9", "100000000000000000000", "1.0",
                URLEncoder.encode(new String(randomBytes(1 + random.nextInt(40)), StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8),
                "AAAA", Base64.getUrlEncoder().encodeToString(randomBytes(12))));
    }

    // ---- plumbing -------------------------------------------------------------------------------------------------

    private HttpResponse<String> send(String baseUrl, Probe probe) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + probe.path())).timeout(Duration.ofSeconds(15))
                .method(probe.method(), probe.body() == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(probe.body()));
        if (probe.authorization() != null) request.header("Authorization", probe.authorization());
        if (probe.contentType() != null) request.header("Content-Type", probe.contentType());
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    private byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static ObjectNode parse(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> iterable(ObjectNode json) {
        List<String> names = new java.util.ArrayList<>();
        json.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String abbreviate(String body) {
        return body.length() <= 300 ? body : body.substring(0, 300) + "…";
    }
}
