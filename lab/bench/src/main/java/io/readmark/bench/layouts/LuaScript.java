package io.readmark.bench.layouts;

import io.readmark.store.unread.UnreadScript;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * One script of a candidate layout: the product's {@code members.lua} and {@code notify.lua} (ids to bytes, and the
 * open-stream notification every change the user can see sends, as the product's scripts do), then the layout's
 * libraries and its script file, from {@code /io/readmark/bench/layouts/}; or, for L0, files of the previous release
 * alone. The SHA-1 is computed here, so EVALSHA needs no round trip first.
 */
record LuaScript(String name, String body, String sha) {

    private static final String DIRECTORY = "/io/readmark/bench/layouts/";
    /** The previous release's scripts, unchanged (module previous-release). */
    private static final String PREVIOUS = "/io/readmark/store/previous/";

    static LuaScript of(String file, String... libraries) {
        StringBuilder text = new StringBuilder();
        text.append(UnreadScript.resource("members.lua")).append('\n');
        text.append(UnreadScript.resource("notify.lua")).append('\n');
        for (String library : libraries) text.append(resource(DIRECTORY, library)).append('\n');
        text.append(resource(DIRECTORY, file)).append('\n');
        return of(file, text);
    }

    /** The previous release's files joined in the order given, helpers first, as that release built its scripts. */
    static LuaScript previous(String... files) {
        StringBuilder text = new StringBuilder();
        for (String file : files) text.append(resource(PREVIOUS, file)).append('\n');
        return of(files[files.length - 1], text);
    }

    private static LuaScript of(String name, StringBuilder text) {
        String body = text.toString();
        return new LuaScript(name, body, UnreadScript.sha1(body));
    }

    private static String resource(String directory, String file) {
        try (InputStream in = LuaScript.class.getResourceAsStream(directory + file)) {
            if (in == null) throw new IllegalStateException("missing layout script " + directory + file);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
