package io.readmark.store;

/**
 * The scripts of {@link Reconciler}: a read-only check of one user and the repair of one user. The shared helpers
 * ({@code author_field.lua}: which counts fields name authors, which values are integers; {@code members.lua}: the
 * merged index's members) are prepended to both, so the check and the repair agree on what a field and a member are.
 * Sent like the others: EVALSHA, EVAL when Redis answers NOSCRIPT.
 */
enum ReconcileScript {
    CHECK("check.lua"),
    REPAIR("repair.lua");

    private final String body;
    private final String sha;

    ReconcileScript(String file) {
        this.body = UnreadScript.resource("author_field.lua") + "\n" + UnreadScript.resource("members.lua") + "\n"
                + UnreadScript.resource(file);
        this.sha = UnreadScript.sha1(body);
    }

    String body() {
        return body;
    }

    String sha() {
        return sha;
    }
}
