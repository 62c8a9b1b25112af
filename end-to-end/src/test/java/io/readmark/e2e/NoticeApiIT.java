package io.readmark.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.e2e.PipelineFixture.WireEvent;
import io.readmark.schemas.Json;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Notices as the view API answers them, with every event sent by a plain Kafka client and every race the issue names:
 * a read before the notice, a withdrawal before the publish, a join after the publish, expiry, a leave, and the
 * all-read floors; the notice inbox paged newest first. Audiences are fresh per test, so tests do not see each
 * other's broadcasts.
 */
class NoticeApiIT {

    private static final String T = "2026-01-01T";
    @AutoClose
    private static PipelineFixture pipeline;
    private static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void startPipeline() throws Exception {
        pipeline = PipelineFixture.start("notice-api", Map.of());
    }

    @Test
    void shouldKeepANoticeReadWhenTheReadArrivedBeforeTheNotice() throws Exception {
        // Given a member of an audience who read a broadcast and a targeted notice before either arrived
        long user = pipeline.newId(), broadcast = pipeline.newId(), targeted = pipeline.newId(), unread = pipeline.newId();
        String audience = audience();
        pipeline.produce(joined(user, audience, T + "09:00:00Z"),
                read(user, """
                        {"type":"NoticeRead","eventId":"r-%d","userId":%d,"noticeId":%d,"readAt":"%s10:00:00Z"}""".formatted(broadcast, user, broadcast, T)),
                read(user, """
                        {"type":"NoticeRead","eventId":"r-%d","userId":%d,"noticeId":%d,"readAt":"%s10:00:00Z"}""".formatted(targeted, user, targeted, T)));

        // When they arrive, beside one that stays unread
        pipeline.produce(published(audience, broadcast, T + "11:00:00Z"), sent(targeted, T + "11:01:00Z", user),
                published(audience, unread, T + "11:02:00Z"));

        // Then only that one counts; the inbox lists all three, two of them read
        PipelineFixture.eventually(() -> assertThat(inboxIds(user)).containsExactly(unread, targeted, broadcast));
        assertThat(notices(user)).isEqualTo(1);
        assertThat(readFlags(user)).containsExactly(false, true, true);
        JsonNode state = pipeline.get("/v1/users/" + user + "/notices/" + broadcast);
        assertThat(state.get("readable").asBoolean()).isTrue();
        assertThat(state.get("read").asBoolean()).isTrue();
        assertThat(state.get("notice").get("audience").asText()).isEqualTo(audience);
        assertThat(pipeline.get("/v1/users/" + user + "/notices/" + targeted).get("notice").get("kind").asText()).isEqualTo("targeted");
    }

    @Test
    void shouldNeverShowAWithdrawnNoticeWhetherTheWithdrawalCameFirstOrLast() throws Exception {
        // Given a member, a notice withdrawn before it was published and one withdrawn after
        long user = pipeline.newId(), early = pipeline.newId(), late = pipeline.newId(), kept = pipeline.newId();
        String audience = audience();
        pipeline.produce(joined(user, audience, T + "09:00:00Z"), withdrawn(audience, early, T + "10:30:00Z"),
                published(audience, early, T + "10:00:00Z"), published(audience, late, T + "10:01:00Z"),
                published(audience, kept, T + "10:02:00Z"));
        PipelineFixture.eventually(() -> assertThat(inboxIds(user)).containsExactly(kept, late));
        assertThat(notices(user)).isEqualTo(2);

        // When the other one is withdrawn
        pipeline.produce(withdrawn(audience, late, T + "12:00:00Z"));

        // Then only the kept one is left, and the withdrawn ones cannot be read
        PipelineFixture.eventually(() -> {
            assertThat(inboxIds(user)).containsExactly(kept);
            assertThat(notices(user)).isEqualTo(1);
        });
        assertThat(pipeline.get("/v1/users/" + user + "/notices/" + early).get("readable").asBoolean()).isFalse();
        assertThat(pipeline.get("/v1/users/" + user + "/notices/" + late).get("readable").asBoolean()).isFalse();
    }

    @Test
    void shouldGiveAMemberOnlyTheNoticesPublishedAfterTheyJoined() throws Exception {
        // Given a notice published before the user joined, and one after
        long user = pipeline.newId(), before = pipeline.newId(), after = pipeline.newId();
        String audience = audience();
        pipeline.produce(published(audience, before, T + "10:00:00Z"), joined(user, audience, T + "11:00:00Z"),
                published(audience, after, T + "12:00:00Z"));

        // Then only the later one is theirs
        PipelineFixture.eventually(() -> assertThat(inboxIds(user)).containsExactly(after));
        assertThat(notices(user)).isEqualTo(1);
        assertThat(pipeline.get("/v1/users/" + user + "/notices/" + before).get("readable").asBoolean()).isFalse();
    }

    @Test
    void shouldStopCountingANoticeOnceItExpires() throws Exception {
        // Given a notice that expires in a few seconds, one already expired when published, and one that never does
        long user = pipeline.newId(), soon = pipeline.newId(), expired = pipeline.newId(), lasting = pipeline.newId();
        String audience = audience();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        pipeline.produce(joined(user, audience, T + "09:00:00Z"),
                notice(audience, """
                        {"type":"NoticePublished","eventId":"p-%d","noticeId":%d,"audience":"%s","publishedAt":"%s","expiresAt":"%s"}"""
                        .formatted(soon, soon, audience, now.minusSeconds(60), now.plusSeconds(4))),
                notice(audience, """
                        {"type":"NoticePublished","eventId":"p-%d","noticeId":%d,"audience":"%s","publishedAt":"%s","expiresAt":"%s"}"""
                        .formatted(expired, expired, audience, now.minusSeconds(120), now.minusSeconds(30))),
                published(audience, lasting, now.minusSeconds(90).toString()));
        PipelineFixture.eventually(() -> assertThat(inboxIds(user)).containsExactly(soon, lasting));
        assertThat(pipeline.get("/v1/users/" + user + "/notices").get("items").get(0).get("expiresAt").asText())
                .isEqualTo(now.plusSeconds(4).toString());

        // Then once its time has passed it no longer counts nor shows, with no event to say so
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            assertThat(notices(user)).isEqualTo(1);
            assertThat(inboxIds(user)).containsExactly(lasting);
        });
        assertThat(pipeline.get("/v1/users/" + user + "/notices/" + expired).get("readable").asBoolean()).isFalse();
    }

    @Test
    void shouldStopCountingAnAudiencesNoticesOnceTheUserLeftIt() throws Exception {
        // Given a member with an unread notice of the audience
        long user = pipeline.newId(), notice = pipeline.newId();
        String audience = audience();
        pipeline.produce(joined(user, audience, T + "09:00:00Z"), published(audience, notice, T + "10:00:00Z"));
        PipelineFixture.eventually(() -> assertThat(notices(user)).isEqualTo(1));

        // When they leave, and a join older than the leave arrives late
        pipeline.produce(left(user, audience, T + "11:00:00Z"), joined(user, audience, T + "08:00:00Z"));

        // Then the audience's notices are no longer theirs
        PipelineFixture.eventually(() -> {
            assertThat(notices(user)).isZero();
            assertThat(inboxIds(user)).isEmpty();
        });
        assertThat(pipeline.get("/v1/users/" + user + "/notices/" + notice).get("readable").asBoolean()).isFalse();
    }

    @Test
    void shouldReadEveryNoticeUpToTheMomentOfANoticesAllReadOrAnAllRead() throws Exception {
        // Given three broadcasts and a targeted notice, at 10:00, 11:00, 12:00 and 13:00
        long user = pipeline.newId(), first = pipeline.newId(), second = pipeline.newId(), third = pipeline.newId(), fourth = pipeline.newId();
        String audience = audience();
        pipeline.produce(joined(user, audience, T + "09:00:00Z"), published(audience, first, T + "10:00:00Z"),
                published(audience, second, T + "11:00:00Z"), published(audience, third, T + "12:00:00Z"),
                sent(fourth, T + "13:00:00Z", user));
        PipelineFixture.eventually(() -> assertThat(notices(user)).isEqualTo(4));
        JsonNode capped = pipeline.get("/v1/users/" + user + "/unread?cap=3");
        assertThat(capped.get("total").asLong()).as("total covers notices").isEqualTo(4);
        assertThat(capped.get("display").get("notices").asText()).isEqualTo("3+");

        // When the notices are read up to 11:00, then everything up to 12:30
        pipeline.produce(read(user, """
                {"type":"NoticesAllRead","eventId":"nar-%d","userId":%d,"readAt":"%s11:00:00Z"}""".formatted(user, user, T)));
        PipelineFixture.eventually(() -> assertThat(notices(user)).isEqualTo(2));
        pipeline.produce(read(user, """
                {"type":"AllRead","eventId":"ar-%d","userId":%d,"readAt":"%s12:30:00Z"}""".formatted(user, user, T)));

        // Then only the targeted notice sent after 12:30 is unread
        PipelineFixture.eventually(() -> assertThat(notices(user)).isEqualTo(1));
        assertThat(readFlags(user)).containsExactly(false, true, true, true);
        assertThat(pipeline.get("/v1/users/" + user + "/unread").get("total").asLong()).isEqualTo(1);
    }

    @Test
    void shouldPageTheNoticeInboxNewestFirstWithoutSkipsOrRepeats() throws Exception {
        // Given eight notices, broadcast and targeted, four of them in the same millisecond
        long user = pipeline.newId();
        String audience = audience();
        List<WireEvent> events = new ArrayList<>(List.of(joined(user, audience, T + "09:00:00Z")));
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            long id = pipeline.newId();
            ids.add(id);
            String at = i < 4 ? T + "10:00:00Z" : T + "1" + i + ":00:00Z";
            events.add(i % 2 == 0 ? published(audience, id, at) : sent(id, at, user));
        }
        pipeline.produce(events.toArray(WireEvent[]::new));
        PipelineFixture.eventually(() -> assertThat(notices(user)).isEqualTo(8));

        // When the inbox is read three at a time
        List<Long> paged = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = pipeline.get("/v1/users/" + user + "/notices?limit=3" + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(page.get("items").size()).isLessThanOrEqualTo(3);
            page.get("items").forEach(item -> paged.add(item.get("noticeId").asLong()));
            cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asText();
        } while (cursor != null);

        // Then every notice shows once, newest first, ties by the id's digits descending
        List<Long> expected = new ArrayList<>(ids.subList(4, 8).reversed());
        List<Long> tied = new ArrayList<>(ids.subList(0, 4));
        tied.sort((a, b) -> Long.toString(b).compareTo(Long.toString(a)));
        expected.addAll(tied);
        assertThat(paged).containsExactlyElementsOf(expected);
        assertThat(raw("/v1/users/" + user + "/notices?cursor=bogus")).satisfies(response -> {
            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(Json.MAPPER.readTree(response.body()).get("field").asText()).isEqualTo("cursor");
        });
        for (String badId : List.of("0", "01", "abc", "99999999999999999999")) {
            HttpResponse<String> response = raw("/v1/users/" + user + "/notices/" + badId);
            assertThat(response.statusCode()).as(badId).isEqualTo(400);
            assertThat(Json.MAPPER.readTree(response.body()).get("field").asText()).isEqualTo("noticeId");
        }
    }

    @Test
    void shouldCountAnAnnouncementToEveryoneForAUserWhoJoinedNothing() throws Exception {
        // Given a user who never joined anything
        long user = pipeline.newId(), announcement = pipeline.newId();

        // When a notice is published to everyone
        pipeline.produce(published("everyone", announcement, T + "10:00:00Z"));

        // Then it is theirs; once withdrawn, it is nobody's
        PipelineFixture.eventually(() -> assertThat(pipeline.get("/v1/users/" + user + "/notices/" + announcement)
                .get("readable").asBoolean()).isTrue());
        assertThat(inboxIds(user)).contains(announcement);
        pipeline.produce(withdrawn("everyone", announcement, T + "11:00:00Z"));
        PipelineFixture.eventually(() -> assertThat(pipeline.get("/v1/users/" + user + "/notices/" + announcement)
                .get("readable").asBoolean()).isFalse());
        assertThat(notices(user)).isZero();
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    private static String audience() {
        return "team-" + pipeline.newId();
    }

    private static long notices(long user) throws Exception {
        return pipeline.get("/v1/users/" + user + "/unread").get("notices").asLong();
    }

    private static List<Long> inboxIds(long user) throws Exception {
        List<Long> ids = new ArrayList<>();
        pipeline.get("/v1/users/" + user + "/notices?limit=100").get("items").forEach(item -> ids.add(item.get("noticeId").asLong()));
        return ids;
    }

    private static List<Boolean> readFlags(long user) throws Exception {
        List<Boolean> flags = new ArrayList<>();
        pipeline.get("/v1/users/" + user + "/notices?limit=100").get("items").forEach(item -> flags.add(item.get("read").asBoolean()));
        return flags;
    }

    private static HttpResponse<String> raw(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(pipeline.stack().viewApiUrl() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static WireEvent notice(String key, String json) {
        return new WireEvent(pipeline.stack().topics().noticeEvents().name(), key, json);
    }

    private static WireEvent read(long userId, String json) {
        return new WireEvent(pipeline.stack().topics().readEvents().name(), Long.toString(userId), json);
    }

    private static WireEvent published(String audience, long noticeId, String at) {
        return notice(audience, """
                {"type":"NoticePublished","eventId":"p-%d","noticeId":%d,"audience":"%s","publishedAt":"%s"}"""
                .formatted(noticeId, noticeId, audience, at));
    }

    private static WireEvent withdrawn(String audience, long noticeId, String at) {
        return notice(audience, """
                {"type":"NoticeWithdrawn","eventId":"w-%d","noticeId":%d,"audience":"%s","withdrawnAt":"%s"}"""
                .formatted(noticeId, noticeId, audience, at));
    }

    private static WireEvent joined(long user, String audience, String at) {
        return notice(audience, """
                {"type":"AudienceJoined","eventId":"j-%d-%s-%s","userId":%d,"audience":"%s","at":"%s"}"""
                .formatted(user, audience, at, user, audience, at));
    }

    private static WireEvent left(long user, String audience, String at) {
        return notice(audience, """
                {"type":"AudienceLeft","eventId":"l-%d-%s","userId":%d,"audience":"%s","at":"%s"}"""
                .formatted(user, audience, user, audience, at));
    }

    private static WireEvent sent(long noticeId, String at, long... recipients) {
        StringBuilder ids = new StringBuilder();
        for (long recipient : recipients) ids.append(ids.isEmpty() ? "" : ",").append(recipient);
        return notice(Long.toString(noticeId), """
                {"type":"NoticeSent","eventId":"s-%d","noticeId":%d,"recipientIds":[%s],"sentAt":"%s"}"""
                .formatted(noticeId, noticeId, ids, at));
    }
}
