package io.readmark.common.http;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A request target as sent, parsed strictly: a path in its one canonical spelling, split into segments, and query
 * parameters, each named once. What a proxy in front matches on and what a route sees must be the same string, so no
 * alternative spelling reaches a route: no percent-encoding in the path (neither {@code %2F} nor an encoded letter),
 * no empty, {@code .} or {@code ..} segments, no trailing slash; anything else is a 400 naming {@code path} or the
 * query parameter, never a different resource.
 */
record RequestTarget(String path, List<String> segments, Map<String, String> query) {

    static RequestTarget parse(String raw) {
        if (raw == null || raw.isEmpty() || raw.charAt(0) != '/') {
            throw ApiException.badRequest("path", "the request target must be a path starting with '/'");
        }
        int question = raw.indexOf('?');
        String path = question < 0 ? raw : raw.substring(0, question);
        List<String> segments = segments(path);
        Map<String, String> query = question < 0 ? Map.of() : query(raw.substring(question + 1));
        return new RequestTarget(path, segments, query);
    }

    private static List<String> segments(String path) {
        for (int i = 0; i < path.length(); i++) {
            if (!pathCharacter(path.charAt(i))) {
                throw ApiException.badRequest("path", path.charAt(i) == '%'
                        ? "the path must not be percent-encoded: ids and names are sent as they are"
                        : "the path may hold only letters, digits and - . _ ~ : between single slashes");
            }
        }
        if (path.equals("/")) return List.of();
        List<String> segments = List.of(path.substring(1).split("/", -1));
        for (String segment : segments) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw ApiException.badRequest("path", "the path must not have empty, '.' or '..' segments nor end with '/'");
            }
        }
        return segments;
    }

    private static boolean pathCharacter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '/' || c == '-' || c == '.' || c == '_' || c == '~' || c == ':';
    }

    private static Map<String, String> query(String raw) {
        if (raw.isEmpty()) return Map.of();
        Map<String, String> params = new HashMap<>();
        for (String pair : raw.split("&", -1)) {
            if (pair.isEmpty()) throw ApiException.badRequest("query", "the query has an empty parameter (a stray '&')");
            int eq = pair.indexOf('=');
            String name = decode("query", eq < 0 ? pair : pair.substring(0, eq));
            String value = decode(name, eq < 0 ? "" : pair.substring(eq + 1));
            if (params.putIfAbsent(name, value) != null) {
                throw ApiException.badRequest(name, "query parameter " + Problem.quote(name) + " is given more than once");
            }
        }
        return Collections.unmodifiableMap(params);
    }

    /** Percent-decoding (and '+' as a space, as forms send it) into UTF-8; bad escapes or bytes are a 400. */
    private static String decode(String field, String raw) {
        if (raw.indexOf('%') < 0 && raw.indexOf('+') < 0) return raw;
        ByteBuffer bytes = ByteBuffer.allocate(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '+') {
                bytes.put((byte) ' ');
            } else if (c != '%') {
                if (c > 0x7f) throw notEncoded(field);
                bytes.put((byte) c);
            } else {
                int high = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int low = high < 0 ? -1 : Character.digit(raw.charAt(i + 2), 16);
                if (low < 0 || !asciiHex(raw.charAt(i + 1)) || !asciiHex(raw.charAt(i + 2))) throw notEncoded(field);
                bytes.put((byte) (high << 4 | low));
                i += 2;
            }
        }
        bytes.flip();
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            CharBuffer chars = utf8.decode(bytes);
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw notEncoded(field);
        }
    }

    private static boolean asciiHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static ApiException notEncoded(String field) {
        return ApiException.badRequest(field, "query parameter is not valid percent-encoded UTF-8");
    }
}
