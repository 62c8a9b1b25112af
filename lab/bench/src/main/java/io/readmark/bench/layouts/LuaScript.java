package io.readmark.bench.layouts;

import io.readmark.store.unread.UnreadScript;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * One script of a candidate layout: the product's {@code members.lua} and {@code notify.lua} (ids to bytes, and the
 * open-stream notification every change the user can see sends, as the product's scripts do), then the layout's
 * libraries and its script file, from {@code /io/readmark/bench/layouts/}. The SHA-1 is computed here, so EVALSHA
 * needs no round trip first.
 */
record LuaScript(String name, String body, String sha) {

    private static final String DIRECTORY = "/io/readmark/bench/layouts/";

    static LuaScript of(String file, String... libraries) {
        StringBuilder text = new StringBuilder();
        text.append(UnreadScript.resource("members.lua")).append('\n');
        text.append(UnreadScript.resource("notify.lua")).append('\n');
        for (String library : libraries) text.append(resource(library)).append('\n');
        text.append(resource(file)).append('\n');
        String body = text.toString();
        return new LuaScript(file, body, UnreadScript.sha1(body));
    }

    private static String resource(String file) {
        try (InputStream in = LuaScript.class.getResourceAsStream(DIRECTORY + file)) {
            if (in == null) throw new IllegalStateException("missing layout script " + file);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
