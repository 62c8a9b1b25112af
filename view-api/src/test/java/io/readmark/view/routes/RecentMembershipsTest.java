package io.readmark.view.routes;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class RecentMembershipsTest {

    @Test
    void shouldKeepWhatAReadFoundUntilAReadFindsNothing() {
        RecentMemberships hints = new RecentMemberships();

        hints.remember(7, Set.of("staff", "beta"), null);
        assertThat(hints.audiences(7)).containsExactlyInAnyOrder("staff", "beta");
        assertThat(hints.reads(7)).isNull();
        assertThat(hints.audiences(8)).isEmpty();

        hints.remember(7, Set.of(), null);
        assertThat(hints.audiences(7)).isEmpty();
    }

    @Test
    void shouldForgetEveryoneRatherThanGrowPastItsBound() {
        RecentMemberships hints = new RecentMemberships();
        for (long user = 1; user <= RecentMemberships.MAX_USERS; user++) hints.remember(user, Set.of("staff"), null);
        assertThat(hints.audiences(1)).containsExactly("staff");

        hints.remember(RecentMemberships.MAX_USERS + 1, Set.of("staff"), null);

        assertThat(hints.audiences(1)).isEmpty();
        assertThat(hints.audiences(RecentMemberships.MAX_USERS + 1)).containsExactly("staff");
    }
}
