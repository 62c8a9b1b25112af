package io.readmark.store.unread;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SampledCountsTest {

    @Test
    void shouldKeepTheTotalsExactAndCountTheAuthorsLeftOut() {
        // Given a hash of 1,000 fields: total, seen and the version, and 997 authors, of which the scan found two (and total again)
        BoundedHashRead.Sample sample = new BoundedHashRead.Sample(1_000, Arrays.asList("1500", "20", null, "42"),
                List.of("7", "3", "total", "1500", "1000000000000", "2"));

        UnreadCounts counts = SampledCounts.of(42, sample);

        assertThat(counts.total()).isEqualTo(1500);
        assertThat(counts.unseen()).isEqualTo(1480);
        assertThat(counts.targetedNotices()).isZero();
        assertThat(counts.byAuthor()).isEqualTo(Map.of(7L, 3L, 1_000_000_000_000L, 2L));
        assertThat(counts.authorsOmitted()).isEqualTo(995);
        assertThat(counts.version()).isEqualTo(42);
    }

    @Test
    void shouldFailOnAFieldThatIsNoNumberNamingOnlyItsStart() {
        BoundedHashRead.Sample sample = new BoundedHashRead.Sample(3, Arrays.asList("1", null, null, null), List.of("x".repeat(100), "1"));

        assertThatThrownBy(() -> SampledCounts.of(5, sample)).isInstanceOf(NumberFormatException.class)
                .hasMessageContaining("user 5").hasMessageContaining("x".repeat(20) + "…").hasMessageNotContaining("x".repeat(21));
    }
}
