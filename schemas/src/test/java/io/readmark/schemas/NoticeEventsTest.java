package io.readmark.schemas;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Notice events: audiences, recipients, the optional expiry, and where each one goes. */
class NoticeEventsTest {

    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

    @Test
    void shouldDecodeAPublishWithAndWithoutExpiry() {
        Event plain = decode("{\"type\":\"NoticePublished\",\"eventId\":\"n1\",\"noticeId\":\"501\",\"audience\":\"everyone\","
                + "\"publishedAt\":\"2026-01-01T12:00:00Z\",\"extra\":1}");
        assertThat(plain).isEqualTo(new NoticePublished("n1", 501, "everyone", NOW));
        Event expiring = decode("{\"type\":\"NoticePublished\",\"eventId\":\"n1\",\"noticeId\":501,\"audience\":\"staff.eu\","
                + "\"publishedAt\":\"2026-01-01T12:00:00Z\",\"expiresAt\":\"2026-01-02T12:00:00Z\"}");
        assertThat(((NoticePublished) expiring).expiresAt()).isEqualTo(NOW.plusSeconds(86_400));
        assertThat(Json.MAPPER.valueToTree(plain).has("expiresAt")).isFalse();
    }

    @Test
    void shouldKeyBroadcastEventsByAudienceAndTargetedOnesByNotice() {
        Topics topics = Topics.defaults();
        assertThat(Topics.keyOf(new NoticePublished("e", 501, "staff", NOW))).isEqualTo("staff");
        assertThat(Topics.keyOf(new AudienceLeft("e", 101, "staff", NOW))).isEqualTo("staff");
        assertThat(Topics.keyOf(new NoticeSent("e", 502, List.of(7L), NOW))).isEqualTo("502");
        assertThat(Topics.keyOf(new NoticeRead("e", 101, 501, NOW))).isEqualTo("101");
        assertThat(topics.topicFor(new NoticeSent("e", 502, List.of(7L), NOW)).name()).isEqualTo("notice-events");
        assertThat(topics.topicFor(new NoticesAllRead("e", 101, NOW)).name()).isEqualTo("read-events");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Staff", "-staff", "staff/eu", "a b",
            "a1234567890123456789012345678901234567890123456789012345678901234"})
    void shouldRejectAudiencesOutsideThePattern(String audience) {
        assertThatThrownBy(() -> new NoticePublished("e", 1, audience, NOW))
                .isInstanceOfSatisfying(InvalidEventException.class, e -> assertThat(e.field()).isEqualTo("audience"));
    }

    @Test
    void shouldRejectJoiningOrLeavingEveryone() {
        assertThatThrownBy(() -> decode("{\"type\":\"AudienceJoined\",\"eventId\":\"e\",\"userId\":1,\"audience\":\"everyone\","
                + "\"at\":\"2026-01-01T12:00:00Z\"}"))
                .isInstanceOfSatisfying(InvalidEventException.class, e -> assertThat(e.field()).isEqualTo("audience"));
        assertThatThrownBy(() -> new AudienceLeft("e", 1, "everyone", NOW)).isInstanceOf(InvalidEventException.class);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "[]|recipientIds",
            "[1,1]|recipientIds",
            "[1,\"1\"]|recipientIds",
            "[0]|recipientIds",
            "[1,-2]|recipientIds",
            "null|recipientIds"})
    void shouldRejectBadRecipientLists(String recipients, String field) {
        assertThatThrownBy(() -> decode("{\"type\":\"NoticeSent\",\"eventId\":\"e\",\"noticeId\":1,\"recipientIds\":" + recipients
                + ",\"sentAt\":\"2026-01-01T12:00:00Z\"}"))
                .isInstanceOfSatisfying(InvalidEventException.class, e -> assertThat(e.field()).isEqualTo(field));
    }

    @Test
    void shouldRejectAnExpiryNotAfterThePublish() {
        assertThatThrownBy(() -> new NoticePublished("e", 1, "staff", NOW, NOW))
                .isInstanceOfSatisfying(InvalidEventException.class, e -> assertThat(e.field()).isEqualTo("expiresAt"));
    }

    private static Event decode(String json) {
        return Topics.EVENT_SERDE.decode(json.getBytes(StandardCharsets.UTF_8));
    }
}
