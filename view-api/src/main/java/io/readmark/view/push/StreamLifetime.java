package io.readmark.view.push;

import io.readmark.common.auth.Principal;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * When one unread stream ends: once its token is no longer accepted (its {@code exp} plus the clock skew, so a
 * reconnect with the same token is refused rather than let in for a stream that ends at once), or at its age limit,
 * whichever comes first. The age limit is drawn between {@value #MIN_AGE_PERCENT}% and all of the maximum age, so
 * streams opened together (after a deploy, a failover) do not all end, and reconnect, together.
 *
 * @param endsAtMillis when the stream ends (epoch milliseconds)
 * @param ending       why: {@link UnreadStream.Ending#TOKEN_EXPIRED} or {@link UnreadStream.Ending#MAX_AGE}
 */
record StreamLifetime(long endsAtMillis, UnreadStream.Ending ending) {

    static final int MIN_AGE_PERCENT = 80;

    /** The lifetime of a stream opened at {@code nowMillis} for {@code principal} (empty with authentication off). */
    static StreamLifetime of(Optional<Principal> principal, Duration maxAge, long nowMillis, RandomGenerator random) {
        long maxMillis = maxAge.toMillis();
        long agedOutAt = nowMillis + maxMillis - random.nextLong(maxMillis * (100 - MIN_AGE_PERCENT) / 100 + 1);
        Instant validUntil = principal.map(Principal::validUntil).orElse(null);
        if (validUntil != null && validUntil.isBefore(Instant.ofEpochMilli(agedOutAt))) {
            return new StreamLifetime(validUntil.toEpochMilli(), UnreadStream.Ending.TOKEN_EXPIRED);
        }
        return new StreamLifetime(agedOutAt, UnreadStream.Ending.MAX_AGE);
    }

    boolean isOver(long nowMillis) {
        return nowMillis >= endsAtMillis;
    }
}
