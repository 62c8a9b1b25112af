package io.readmark.common.auth;

/** The OAuth scopes Readmark's APIs know; an issuer puts them in a service token's {@code scope} or {@code scp}. */
public final class Scopes {

    /** May post events to the producer API. */
    public static final String PUBLISH = "readmark:publish";

    /** May read any user's unread state from the view API, not only the token subject's own. */
    public static final String READ_ANY = "readmark:read-any";

    private Scopes() {
    }
}
