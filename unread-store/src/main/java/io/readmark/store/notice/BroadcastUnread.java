package io.readmark.store.notice;

/**
 * The user's unread broadcast notices, computed when asked (read diffusion).
 *
 * @param nextExpiryMillis the earliest time one of them expires, when the count drops without any event; 0 if never
 */
public record BroadcastUnread(long count, long nextExpiryMillis) {

    public static final BroadcastUnread NONE = new BroadcastUnread(0, 0);
}
