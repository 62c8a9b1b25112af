package io.readmark.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Redis ACL users docs/CONFIGURATION.md gives each deployable (its {@code user <name> on >PASSWORD ...} lines),
 * read from that page, so tests run Redis under exactly the rules operators are told to paste.
 */
public final class DocumentedRedisUsers {

    private static final String PAGE = "docs/CONFIGURATION.md";

    private DocumentedRedisUsers() {
    }

    /**
     * The documented rules of each user in {@code passwords}, the password placeholder replaced, as the tokens of one
     * {@code ACL SETUSER} each (a selector in parentheses stays one token).
     */
    public static List<List<String>> rules(Map<String, String> passwords) {
        List<List<String>> rules = new ArrayList<>();
        for (var user : passwords.entrySet()) {
            String line = documentedLines().stream().filter(l -> l.startsWith("user " + user.getKey() + " "))
                    .findFirst().orElseThrow(() -> new IllegalStateException(PAGE + " documents no Redis user " + user.getKey()));
            List<String> tokens = tokens(line.substring("user ".length()));
            tokens.replaceAll(token -> token.startsWith(">") ? ">" + user.getValue() : token);
            rules.add(tokens);
        }
        return rules;
    }

    /**
     * {@code redis-server} flags that create these users and set the default one as documented (off, so no one logs
     * in as it): a token per argument, as redis-server would quote an argument with spaces as one word.
     */
    public static List<String> serverArgs(Map<String, String> passwords) {
        String defaultUser = documentedLines().stream().filter(l -> l.startsWith("user default ")).findFirst()
                .orElseThrow(() -> new IllegalStateException(PAGE + " documents no line for Redis' default user"));
        List<String> args = new ArrayList<>(List.of("--user"));
        args.addAll(tokens(defaultUser.substring("user ".length())));
        rules(passwords).forEach(rule -> {
            args.add("--user");
            args.addAll(rule);
        });
        return args;
    }

    private static List<String> documentedLines() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve(PAGE))) dir = dir.getParent();
        if (dir == null) throw new IllegalStateException("no " + PAGE + " above " + Path.of("").toAbsolutePath());
        try {
            return Files.readAllLines(dir.resolve(PAGE)).stream().map(String::strip).filter(l -> l.startsWith("user ")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Splits on spaces, but not inside parentheses: {@code (~key +set)} is one selector. */
    private static List<String> tokens(String rule) {
        List<String> tokens = new ArrayList<>();
        StringBuilder token = new StringBuilder();
        int depth = 0;
        for (char c : rule.toCharArray()) {
            if (c == ' ' && depth == 0) {
                if (!token.isEmpty()) tokens.add(token.toString());
                token.setLength(0);
                continue;
            }
            if (c == '(') depth++;
            if (c == ')') depth--;
            token.append(c);
        }
        if (!token.isEmpty()) tokens.add(token.toString());
        return tokens;
    }
}
