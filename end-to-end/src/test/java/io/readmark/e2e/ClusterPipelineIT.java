package io.readmark.e2e;

import io.readmark.launcher.LocalStack;
import com.fasterxml.jackson.databind.JsonNode;
import io.lettuce.core.RedisURI;
import io.lettuce.core.Range;
import io.lettuce.core.RedisFuture;
import io.readmark.store.unread.UnreadKeys;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.commit.CaughtUp;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.readmark.common.config.Settings;
import io.readmark.infra.EmbeddedRedisCluster;
import io.readmark.infra.TestInfrastructure;
import io.readmark.schemas.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole pipeline on a real three-master Redis Cluster: each follower's scripts run on the master owning their
 * hash tag, so fan-out, read, read-all, unfollow and delete apply exactly, without CROSSSLOT or MOVED; notices too,
 * with each audience's keys on the master owning its own hash tag.
 */
class ClusterPipelineIT {

    private static final long AUTHOR = 7;
    private static final long OTHER_AUTHOR = 8;
    private static final long BIG_V = 9;
    /** Over the default big-V threshold: the chunked worker fans the post out. */
    private static final int BIG_V_FOLLOWERS = 20_000;
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final HttpClient http = HttpClient.newHttpClient();
    private static final List<String> serverErrors = new CopyOnWriteArrayList<>();

    private static EmbeddedRedisCluster cluster;
    private static LocalStack stack;
    private static String prefix;
    private static String run;
    private static RedisClusterClient client;
    private static StatefulRedisClusterConnection<String, String> redis;

    @BeforeAll
    static void startStackOnCluster() throws Exception {
        cluster = EmbeddedRedisCluster.start(3);
        run = UUID.randomUUID().toString().substring(0, 8);
        prefix = "cluster-" + run;
        stack = LocalStack.start(Settings.of(Map.ofEntries(
                Map.entry("KAFKA_BOOTSTRAP_SERVERS", TestInfrastructure.shared().kafkaBootstrapServers()),
                Map.entry("REDIS_URL", cluster.url()),
                Map.entry("READMARK_REDIS_PREFIX", prefix),
                Map.entry("READMARK_TOPIC_BLOG_EVENTS", "blog-events-" + run),
                Map.entry("READMARK_TOPIC_FOLLOW_EVENTS", "follow-events-" + run),
                Map.entry("READMARK_TOPIC_READ_EVENTS", "read-events-" + run),
                Map.entry("READMARK_TOPIC_NOTICE_EVENTS", "notice-events-" + run),
                Map.entry("READMARK_TOPIC_DLQ", "dlq-" + run),
                Map.entry("READMARK_TOPIC_FANOUT", "fanout-" + run),
                Map.entry("PROCESSOR_APPLICATION_ID", "cluster-" + run),
                Map.entry("PRODUCER_API_PORT", "0"),
                Map.entry("VIEW_API_PORT", "0")), Map.of()));
        client = RedisClusterClient.create(cluster.ports().stream().map(port -> RedisURI.create("127.0.0.1", port)).toList());
        redis = client.connect();
    }

    @AfterAll
    static void stopAll() {
        if (redis != null) redis.close();
        if (client != null) client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        if (stack != null) stack.close();
        if (cluster != null) cluster.close();
    }

    @Test
    void keepsEveryFollowersUnreadExactWhenFollowersLiveOnDifferentMasters() throws Exception {
        // Given four followers of two authors; the first three hash to three different masters
        List<Long> users = followersOnEveryMaster();
        long reader = users.get(0), readsAll = users.get(1), unfollower = users.get(2), bystander = users.get(3);
        for (long user : users) {
            for (long author : List.of(AUTHOR, OTHER_AUTHOR)) {
                post("Followed", "\"followerId\":%d,\"authorId\":%d,\"at\":\"2026-01-01T10:00:00Z\"".formatted(user, author));
            }
        }
        // When the author publishes five posts and the other author one
        for (int i = 1; i <= 5; i++) publish(7000 + i, AUTHOR, "2026-01-01T12:0" + i + ":00Z");
        publish(8001, OTHER_AUTHOR, "2026-01-01T12:10:00Z");

        // Then every follower sees all six, newest first across pages
        Map<Long, Map<String, Long>> counts = new LinkedHashMap<>();
        Map<Long, List<Long>> unreadOfAuthor = new LinkedHashMap<>();
        for (long user : users) {
            counts.put(user, Map.of("7", 5L, "8", 1L));
            unreadOfAuthor.put(user, List.of(7005L, 7004L, 7003L, 7002L, 7001L));
        }
        awaitViews(counts, unreadOfAuthor);

        // When one reads a post, one reads all of the author, one unfollows, a post is deleted and another published
        post("BlogRead", "\"userId\":%d,\"blogId\":7003,\"authorId\":7,\"readAt\":\"2026-01-01T13:00:00Z\"".formatted(reader));
        post("AuthorReadAll", "\"userId\":%d,\"authorId\":7,\"readAt\":\"2026-01-01T13:00:00Z\"".formatted(readsAll));
        post("Unfollowed", "\"followerId\":%d,\"authorId\":7,\"at\":\"2026-01-01T13:00:00Z\"".formatted(unfollower));
        post("BlogDeleted", "\"blogId\":7005,\"authorId\":7,\"deletedAt\":\"2026-01-01T13:30:00Z\"");
        publish(7006, AUTHOR, "2026-01-01T14:00:00Z");

        // Then each follower's counts and pages are exactly what those events leave
        counts.put(reader, Map.of("7", 4L, "8", 1L));
        counts.put(readsAll, Map.of("7", 1L, "8", 1L));
        counts.put(unfollower, Map.of("8", 1L));
        counts.put(bystander, Map.of("7", 5L, "8", 1L));
        unreadOfAuthor.put(reader, List.of(7006L, 7004L, 7002L, 7001L));
        unreadOfAuthor.put(readsAll, List.of(7006L));
        unreadOfAuthor.put(unfollower, List.of());
        unreadOfAuthor.put(bystander, List.of(7006L, 7004L, 7003L, 7002L, 7001L));
        awaitViews(counts, unreadOfAuthor);

        // And the view API never failed, and no master ever answered a cross-slot or redirect error
        assertThat(serverErrors).isEmpty();
        for (int port : cluster.ports()) {
            assertThat(redis.getConnection("127.0.0.1", port).sync().info("errorstats")).as("errorstats of " + port)
                    .doesNotContain("errorstat_CROSSSLOT", "errorstat_MOVED", "errorstat_ASK", "errorstat_CLUSTERDOWN");
        }
        // And every user's keys sit on the master owning {u:<id>}, with counts equal to the sets they count
        for (long user : users) assertKeysOnOwningMasterAndCountsEqualSets(user);
    }

    @Test
    void keepsNoticesExactWhenAudiencesAndUsersLiveOnDifferentMasters() throws Exception {
        // Given three users on three masters, all in one audience, the first also in a second on another master
        List<Long> users = usersOnEveryMaster(5001);
        long both = users.get(0), reader = users.get(1), member = users.get(2);
        List<String> audiences = audiencesOnTwoMasters();
        String team = audiences.get(0), staff = audiences.get(1);
        for (long user : users.subList(0, 3)) {
            post("AudienceJoined", "\"userId\":%d,\"audience\":\"%s\",\"at\":\"2026-01-01T09:00:00Z\"".formatted(user, team));
        }
        post("AudienceJoined", "\"userId\":%d,\"audience\":\"%s\",\"at\":\"2026-01-01T09:00:00Z\"".formatted(both, staff));

        // When each audience gets a broadcast, two of them a targeted notice, and one reads the broadcast
        post("NoticePublished", "\"noticeId\":901,\"audience\":\"%s\",\"publishedAt\":\"2026-01-01T10:00:00Z\"".formatted(team));
        post("NoticePublished", "\"noticeId\":902,\"audience\":\"%s\",\"publishedAt\":\"2026-01-01T10:01:00Z\"".formatted(staff));
        post("NoticeSent", "\"noticeId\":903,\"recipientIds\":[%d,%d],\"sentAt\":\"2026-01-01T10:02:00Z\"".formatted(both, reader));
        post("NoticeRead", "\"userId\":%d,\"noticeId\":901,\"readAt\":\"2026-01-01T11:00:00Z\"".formatted(reader));

        // Then each counts exactly their own, and the inbox lists them newest first across pages
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(get("/v1/users/" + both + "/unread").get("notices").asLong()).isEqualTo(3);
            assertThat(get("/v1/users/" + reader + "/unread").get("notices").asLong()).isEqualTo(1);
            assertThat(get("/v1/users/" + member + "/unread").get("notices").asLong()).isEqualTo(1);
            assertThat(pagedNotices(both)).containsExactly(903L, 902L, 901L);
        });
        assertThat(get("/v1/users/" + reader + "/notices/901").get("read").asBoolean()).isTrue();

        // When the second audience's broadcast is withdrawn
        post("NoticeWithdrawn", "\"noticeId\":902,\"audience\":\"%s\",\"withdrawnAt\":\"2026-01-01T12:00:00Z\"".formatted(staff));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(pagedNotices(both)).containsExactly(903L, 901L));

        // And no master answered a cross-slot or redirect error, and the view API never failed
        assertThat(serverErrors).isEmpty();
        for (int port : cluster.ports()) {
            assertThat(redis.getConnection("127.0.0.1", port).sync().info("errorstats")).as("errorstats of " + port)
                    .doesNotContain("errorstat_CROSSSLOT", "errorstat_MOVED", "errorstat_ASK", "errorstat_CLUSTERDOWN");
        }
    }

    /**
     * The walk goes slot by slot, so a burst of the big-V worker holds runs of followers of one slot, and each run is
     * one script: at most one per slot the followers occupy, plus one per burst boundary that splits a run. In id
     * order (a burst of 20 rarely holding two of one slot) it was one script per follower.
     */
    @Test
    void fansABigVPostOutInOneScriptPerRunOfFollowersOfOneSlot() throws Exception {
        // Given a big-V author's followers, their follows applied (a first follow writes nothing to Redis)
        List<Long> followers = LongStream.rangeClosed(2_000_001, 2_000_000 + BIG_V_FOLLOWERS).boxed().toList();
        for (int from = 0; from < followers.size(); from += 1_000) {
            postBatch(followers.subList(from, from + 1_000).stream().map(follower -> event("Followed",
                    "\"followerId\":%d,\"authorId\":%d,\"at\":\"2026-01-01T10:00:00Z\"".formatted(follower, BIG_V))).toList());
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestInfrastructure.shared().kafkaBootstrapServers()))) {
            CaughtUp.await(admin, "cluster-" + run, List.of("follow-events-" + run, "blog-events-" + run), PATIENCE);
        }
        for (int port : cluster.ports()) redis.getConnection("127.0.0.1", port).sync().configResetstat();

        // When the author publishes
        publish(9001, BIG_V, "2026-01-01T12:00:00Z");

        // Then every follower has it, and the masters ran one delivery script per run of one slot's followers
        await().atMost(PATIENCE).pollInterval(Duration.ofSeconds(1)).until(() -> unreadOf(followers, BIG_V) == followers.size());
        long scripts = 0;
        for (int port : cluster.ports()) {
            Matcher calls = Pattern.compile("cmdstat_evalsha:calls=(\\d+)").matcher(redis.getConnection("127.0.0.1", port).sync().info("commandstats"));
            if (calls.find()) scripts += Long.parseLong(calls.group(1));
        }
        long slots = followers.stream().map(follower -> SlotHash.getSlot("{u:" + follower + "}")).distinct().count();
        long bursts = (followers.size() + ProcessorConfig.DEFAULT_FANOUT_BURST - 1) / ProcessorConfig.DEFAULT_FANOUT_BURST;
        assertThat(scripts).as("%d followers in %d slots, %d bursts", followers.size(), slots, bursts)
                .isBetween(slots, slots + bursts);
    }

    /** How many of the users hold an unread count for the author, asked in one pipelined round. */
    private static long unreadOf(List<Long> users, long author) throws Exception {
        RedisClusterAsyncCommands<String, String> async = redis.async();
        List<RedisFuture<Boolean>> counts = users.stream().map(user -> async.hexists(prefix + ":{u:" + user + "}:h", Long.toString(author))).toList();
        long holding = 0;
        for (RedisFuture<Boolean> count : counts) if (count.get()) holding++;
        return holding;
    }

    private static String event(String type, String fields) {
        return "{\"type\":\"%s\",\"eventId\":\"%s\",%s}".formatted(type, UUID.randomUUID(), fields);
    }

    /** Posts events as one batch to the producer API; every one must be accepted. */
    private static void postBatch(List<String> events) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(stack.producerApiUrl() + "/v1/events:batch"))
                .header("Content-Type", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofString(String.join("\n", events))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(Json.MAPPER.readTree(response.body()).get("accepted").asInt()).as(response.body()).isEqualTo(events.size());
    }

    /** Two audience names whose keys live on different masters. */
    private static List<String> audiencesOnTwoMasters() {
        Partitions partitions = redis.getPartitions();
        String first = "team-1";
        int firstPort = partitions.getPartitionBySlot(SlotHash.getSlot("{a:" + first + "}")).getUri().getPort();
        for (int i = 1; ; i++) {
            String other = "staff-" + i;
            if (partitions.getPartitionBySlot(SlotHash.getSlot("{a:" + other + "}")).getUri().getPort() != firstPort) {
                return List.of(first, other);
            }
        }
    }

    /** The notice inbox two at a time, following nextCursor to the end. */
    private static List<Long> pagedNotices(long user) throws Exception {
        List<Long> ids = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = get("/v1/users/" + user + "/notices?limit=2" + (cursor == null ? "" : "&cursor=" + cursor));
            page.get("items").forEach(item -> ids.add(item.get("noticeId").asLong()));
            cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asText();
        } while (cursor != null);
        return ids;
    }

    /** Four user ids: the first three owned by three different masters, the fourth by any. */
    private static List<Long> followersOnEveryMaster() {
        return usersOnEveryMaster(1001);
    }

    /** Four user ids from {@code first} on: the first three owned by three different masters, the fourth by any. */
    private static List<Long> usersOnEveryMaster(long first) {
        Partitions partitions = redis.getPartitions();
        Map<Integer, Long> userByPort = new LinkedHashMap<>();
        long id = first;
        while (userByPort.size() < cluster.ports().size()) {
            userByPort.putIfAbsent(ownerPort(partitions, id), id);
            id++;
        }
        List<Long> users = new ArrayList<>(userByPort.values());
        users.add(id);
        return users;
    }

    private static int ownerPort(Partitions partitions, long userId) {
        return partitions.getPartitionBySlot(SlotHash.getSlot("{u:" + userId + "}")).getUri().getPort();
    }

    private static void assertKeysOnOwningMasterAndCountsEqualSets(long user) {
        String tag = prefix + ":{u:" + user + "}";
        int owner = ownerPort(redis.getPartitions(), user);
        for (int port : cluster.ports()) {
            List<String> keys = redis.getConnection("127.0.0.1", port).sync().keys(tag + ":*");
            if (port == owner) assertThat(keys).as("keys of user " + user + " on its master").contains(tag + ":h", tag + ":z");
            else assertThat(keys).as("keys of user " + user + " on master " + port).isEmpty();
        }
        // Each author's count is its records' number (12 bytes each); total is their sum and z's unread entries.
        RedisClusterCommands<String, String> sync = redis.sync();
        long sum = 0;
        for (String field : sync.hkeys(tag + ":h")) {
            if (UnreadKeys.id(field) > 0) sum += sync.hstrlen(tag + ":h", field) / 12;
        }
        assertThat(sync.hget(tag + ":h", "total")).as("total of user " + user).isEqualTo(Long.toString(sum));
        assertThat(sync.zcount(tag + ":z", Range.create(Double.NEGATIVE_INFINITY, 0.0))).as("z's unread of user " + user).isEqualTo(sum);
    }

    private static void awaitViews(Map<Long, Map<String, Long>> counts, Map<Long, List<Long>> unreadOfAuthor) {
        await().atMost(PATIENCE).untilAsserted(() -> {
            for (long user : counts.keySet()) {
                JsonNode view = get("/v1/users/" + user + "/unread");
                Map<String, Long> byAuthor = new LinkedHashMap<>();
                view.get("byAuthor").properties().forEach(field -> byAuthor.put(field.getKey(), field.getValue().asLong()));
                assertThat(byAuthor).as("byAuthor of user " + user).isEqualTo(counts.get(user));
                assertThat(view.get("total").asLong()).as("total of user " + user)
                        .isEqualTo(counts.get(user).values().stream().mapToLong(Long::longValue).sum());
                assertThat(pagedUnread(user, AUTHOR)).as("pages of user " + user).isEqualTo(unreadOfAuthor.get(user));
                assertThat(paged(user, "/unread/items")).as("merged pages of user " + user)
                        .isEqualTo(withOtherAuthorsPost(unreadOfAuthor.get(user)));
            }
        });
    }

    private static List<Long> pagedUnread(long user, long author) throws Exception {
        return paged(user, "/unread/" + author);
    }

    /** The merged newest-first list: the other author's 8001 (12:10) sits below 7006 (14:00) and above the rest. */
    private static List<Long> withOtherAuthorsPost(List<Long> ofAuthor) {
        List<Long> merged = new ArrayList<>(ofAuthor.stream().filter(id -> id == 7006L).toList());
        merged.add(8001L);
        ofAuthor.stream().filter(id -> id != 7006L).forEach(merged::add);
        return merged;
    }

    /** Walks a newest-first list two items at a time, following nextCursor to the end. */
    private static List<Long> paged(long user, String list) throws Exception {
        List<Long> blogIds = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = get("/v1/users/" + user + list + "?limit=2" + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(page.get("items").size()).isLessThanOrEqualTo(2);
            page.get("items").forEach(item -> blogIds.add(item.get("blogId").asLong()));
            cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asText();
        } while (cursor != null);
        return blogIds;
    }

    private static void publish(long blogId, long author, String at) throws Exception {
        post("BlogPublished", "\"blogId\":%d,\"authorId\":%d,\"publishedAt\":\"%s\"".formatted(blogId, author, at));
    }

    /** Posts one event to the producer API; 202 means Kafka acknowledged it, so later posts are ordered after it. */
    private static void post(String type, String fields) throws Exception {
        String json = event(type, fields);
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(stack.producerApiUrl() + "/v1/events"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
    }

    private static JsonNode get(String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(stack.viewApiUrl() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        // Recorded, not only asserted: a 503 inside an await would otherwise just be retried away.
        if (response.statusCode() >= 500) serverErrors.add(path + " -> " + response.statusCode() + " " + response.body());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Json.MAPPER.readTree(response.body());
    }
}
