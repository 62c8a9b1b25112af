package io.readmark.store.unread;

/**
 * Lua scripts that only read. Sent like {@link UnreadScript}: EVALSHA with the SHA-1 computed here, EVAL when Redis
 * answers NOSCRIPT.
 */
enum ReadScript {
    /** One page of the user's merged index after a cursor, in one round trip (see the script). */
    MERGED_PAGE("merged_page.lua");

    private final String body;
    private final String sha;

    ReadScript(String file) {
        this.body = UnreadScript.resource("members.lua") + "\n" + UnreadScript.resource(file);
        this.sha = UnreadScript.sha1(body);
    }

    String body() {
        return body;
    }

    String sha() {
        return sha;
    }
}
