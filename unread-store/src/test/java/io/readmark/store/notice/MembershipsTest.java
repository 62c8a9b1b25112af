package io.readmark.store.notice;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MembershipsTest {

    @Test
    void shouldKeepJoinedAudiencesAndEveryoneButNotLeftOnes() {
        Memberships memberships = Memberships.of(Map.of("staff", "J100", "beta", "L200", NoticeKeys.EVERYONE, "J999"));

        assertThat(memberships.joinedAt()).containsOnly(Map.entry("staff", 100L));
        assertThat(memberships.joined()).containsExactly("staff");
        assertThat(memberships.receives(new LiveNotice(4, NoticeKeys.EVERYONE, 1, 0))).as("everyone's, since always").isTrue();
        assertThat(memberships.receives(new LiveNotice(1, "staff", 101, 0))).isTrue();
        assertThat(memberships.receives(new LiveNotice(2, "staff", 100, 0))).as("published as the user joined").isFalse();
        assertThat(memberships.receives(new LiveNotice(3, "beta", 300, 0))).isFalse();
    }

    @Test
    void shouldReadTheNoticeFloorBesideTheAudiences() {
        Memberships memberships = Memberships.of(Map.of("staff", "J100", NoticeKeys.NOTICE_FLOOR, "1767225600123"));

        assertThat(memberships.joined()).containsExactly("staff");
        assertThat(memberships.noticeFloor()).isEqualTo(1_767_225_600_123L);
        assertThat(Memberships.of(Map.of("staff", "J100")).noticeFloor()).isZero();
    }

    @Test
    void shouldConsiderOnlyTheLatestJoinedAudiencesTiesByName() {
        Map<String, String> hash = new HashMap<>();
        for (int i = 0; i < Memberships.MAX_AUDIENCES + 10; i++) hash.put("a" + i, "J" + (1_000 + i));
        hash.put("tie-b", "J1000");
        hash.put("tie-a", "J1000");

        Memberships memberships = Memberships.of(hash);

        assertThat(memberships.joined()).hasSize(Memberships.MAX_AUDIENCES)
                .startsWith("a" + (Memberships.MAX_AUDIENCES + 9)).contains("a10").doesNotContain("a9", "tie-a", "a0");
        Map<String, String> small = Map.of("tie-b", "J5", "tie-a", "J5", "new", "J6");
        assertThat(Memberships.of(small).joined()).containsExactly("new", "tie-a", "tie-b");
    }
}
