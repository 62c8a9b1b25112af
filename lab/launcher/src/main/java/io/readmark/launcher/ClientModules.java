package io.readmark.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The web client's compiled modules ({@code clients/js}), as the js-client jar holds them under
 * {@code readmark-client/}, for every page that serves them: the demo page, and the browser tests' page. A name is
 * checked before anything is looked up, so no request reaches another resource of the class path.
 */
public final class ClientModules {

    /** Where the js-client jar holds the compiled modules. */
    private static final String DIRECTORY = "readmark-client/";
    /** A module's file name as the build writes it; bounded, as each one found is kept. */
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,63}\\.js");

    /** The modules asked for and found: at most the jar's files, as a name not found is never kept. */
    private final Map<String, String> found = new ConcurrentHashMap<>();

    /** The module of this file name ({@code index.js}); empty when the name is not a module's or no such module exists. */
    public Optional<String> module(String name) {
        String cached = found.get(name);
        if (cached != null) return Optional.of(cached);
        if (!NAME.matcher(name).matches()) return Optional.empty();
        Optional<String> module = text(ClientModules.class.getClassLoader().getResourceAsStream(DIRECTORY + name), name);
        module.ifPresent(text -> found.put(name, text));
        return module;
    }

    /** A class-path resource's text (UTF-8), empty when it is missing; closes the stream. */
    static Optional<String> text(InputStream resource, String name) {
        if (resource == null) return Optional.empty();
        try (InputStream in = resource) {
            return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + name, e);
        }
    }
}
