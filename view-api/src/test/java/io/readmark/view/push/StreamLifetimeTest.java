package io.readmark.view.push;

import io.readmark.common.auth.Principal;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** When a stream ends: the earlier of its token's end and its age limit, the age spread over the last fifth. */
class StreamLifetimeTest {

    private static final Duration MAX_AGE = Duration.ofHours(1);
    private static final long OPENED = Instant.parse("2026-03-01T12:00:00Z").toEpochMilli();

    private static Optional<Principal> validUntil(Instant instant) {
        return Optional.of(new Principal("101", Set.of(), Duration.ofMinutes(5), instant));
    }

    @Test
    void shouldEndWhenTheTokenIsNoLongerAcceptedIfThatComesFirst() {
        // Given
        Instant tokenEnds = Instant.ofEpochMilli(OPENED).plusSeconds(120);

        // When
        StreamLifetime lifetime = StreamLifetime.of(validUntil(tokenEnds), MAX_AGE, OPENED, new Random(1));

        // Then
        assertThat(lifetime).isEqualTo(new StreamLifetime(tokenEnds.toEpochMilli(), UnreadStream.Ending.TOKEN_EXPIRED));
        assertThat(lifetime.isOver(tokenEnds.toEpochMilli() - 1)).isFalse();
        assertThat(lifetime.isOver(tokenEnds.toEpochMilli())).isTrue();
    }

    @Test
    void shouldEndAtTheAgeLimitWithoutAToken() {
        // When
        StreamLifetime lifetime = StreamLifetime.of(Optional.empty(), MAX_AGE, OPENED, new Random(1));

        // Then
        assertThat(lifetime.ending()).isEqualTo(UnreadStream.Ending.MAX_AGE);
        assertThat(lifetime.endsAtMillis()).isBetween(OPENED + MAX_AGE.toMillis() * 4 / 5, OPENED + MAX_AGE.toMillis());
    }

    @Test
    void shouldEndAtTheAgeLimitWhenTheTokenOutlivesIt() {
        // Given: a token valid for days, far beyond any age limit
        Optional<Principal> lasting = validUntil(Instant.ofEpochMilli(OPENED).plus(Duration.ofDays(3)));

        // When
        StreamLifetime lifetime = StreamLifetime.of(lasting, MAX_AGE, OPENED, new Random(1));

        // Then
        assertThat(lifetime.ending()).isEqualTo(UnreadStream.Ending.MAX_AGE);
        assertThat(lifetime.endsAtMillis()).isLessThanOrEqualTo(OPENED + MAX_AGE.toMillis());
    }

    @Test
    void shouldSpreadTheEndsOfStreamsOpenedTogether() {
        // Given
        Random random = new Random(7);
        TreeSet<Long> ends = new TreeSet<>();

        // When: a thousand streams opened in the same millisecond
        for (int i = 0; i < 1_000; i++) ends.add(StreamLifetime.of(Optional.empty(), MAX_AGE, OPENED, random).endsAtMillis());

        // Then: never beyond the maximum age nor before four fifths of it, and spread over most of that fifth
        assertThat(ends.first()).isGreaterThanOrEqualTo(OPENED + MAX_AGE.toMillis() * 4 / 5);
        assertThat(ends.last()).isLessThanOrEqualTo(OPENED + MAX_AGE.toMillis());
        assertThat(ends.last() - ends.first()).isGreaterThan(MAX_AGE.toMillis() / 6);
        assertThat(ends).hasSizeGreaterThan(990);
    }
}
