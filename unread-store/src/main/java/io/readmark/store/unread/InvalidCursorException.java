package io.readmark.store.unread;

/** A page cursor that this store did not issue (or that was altered); the request, not the store, is at fault. */
public final class InvalidCursorException extends IllegalArgumentException {

    public InvalidCursorException() {
        super("cursor is not one this API returned");
    }
}
