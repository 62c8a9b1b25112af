package io.readmark.store;

/**
 * Lua scripts that only read. Sent like {@link UnreadScript}: EVALSHA with the SHA-1 computed here, EVAL when Redis
 * answers NOSCRIPT.
 */
enum ReadScript {
    /** One page across all of a user's authors in one round trip, boundary ties included (see the script). */
    MERGED_PAGE("merged_page.lua");

    private final String body;
    private final String sha;

    ReadScript(String file) {
        this.body = UnreadScript.resource(file);
        this.sha = UnreadScript.sha1(body);
    }

    String body() {
        return body;
    }

    String sha() {
        return sha;
    }
}
