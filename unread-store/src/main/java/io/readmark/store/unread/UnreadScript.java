package io.readmark.store.unread;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The Lua scripts that change unread state, each one user's keys in one atomic step. The shared helpers are prepended
 * to each: {@code members.lua} (ids as the 8 bytes h's records hold, built exactly from decimal ids),
 * {@code counters.lua} (counts change the same way everywhere, and entries up to a moment are removed the same way),
 * {@code notify.lua} (open streams hear of a change from the script that made it) and {@code notices.lua} (when a
 * notice counts as unread); {@code deliver.lua} to the two delivery scripts and {@code remove.lua} to the two removal
 * scripts. The SHA-1 is computed here, so EVALSHA needs no round trip first.
 */
public enum UnreadScript {
    DELIVER_ONE("deliver.lua", "deliver_one.lua"),
    DELIVER_MANY("deliver.lua", "deliver_many.lua"),
    REMOVE_ONE("remove.lua", "remove_one.lua"),
    REMOVE_MANY("remove.lua", "remove_many.lua"),
    READ_ALL("read_all.lua"),
    ALL_READ("all_read.lua"),
    INBOX_SEEN("inbox_seen.lua"),
    UNFOLLOW("unfollow.lua"),
    FOLLOW("follow.lua"),
    UNFOLLOW_BEFORE("unfollow_before.lua"),
    NOTICE_PUBLISH("notice_publish.lua"),
    NOTICE_WITHDRAW("notice_withdraw.lua"),
    AUDIENCE_MEMBER("audience_member.lua"),
    NOTICE_SEND("notice_send.lua"),
    NOTICE_READ("notice_read.lua"),
    NOTICES_ALL_READ("notices_all_read.lua");

    private final String body;
    private final String sha;

    UnreadScript(String... files) {
        StringBuilder text = new StringBuilder();
        String[] helpers = {"members.lua", "counters.lua", "notify.lua", "notices.lua"};
        for (String file : helpers) text.append(resource(file)).append('\n');
        for (String file : files) text.append(resource(file)).append('\n');
        this.body = text.toString();
        this.sha = sha1(body);
    }

    public String body() {
        return body;
    }

    public String sha() {
        return sha;
    }

    /** Where every Lua script of the store lives, whichever package sends it. */
    private static final String SCRIPTS = "/io/readmark/store/";

    public static String resource(String name) {
        try (InputStream in = UnreadScript.class.getResourceAsStream(SCRIPTS + name)) {
            if (in == null) throw new IllegalStateException("missing script resource " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
