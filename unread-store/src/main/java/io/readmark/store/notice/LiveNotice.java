package io.readmark.store.notice;

/**
 * A broadcast notice live in its audience: published, not withdrawn, among the audience's newest kept.
 *
 * @param expiresAtMillis when it stops being readable, or 0 when it never does
 */
public record LiveNotice(long noticeId, String audience, long publishedAtMillis, long expiresAtMillis) {

    /** Readable at {@code nowMillis}: expiry is decided when asked, as no event marks it. */
    public boolean liveAt(long nowMillis) {
        return expiresAtMillis == 0 || expiresAtMillis > nowMillis;
    }
}
