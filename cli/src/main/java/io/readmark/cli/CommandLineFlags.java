package io.readmark.cli;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns {@code --producer-api-port 9000} or {@code --producer-api-port=9000} into the setting
 * {@code PRODUCER_API_PORT=9000}, so every environment variable has a flag of the same name. A command may also
 * declare switches, flags without a value that set a named setting: {@code --quick} becomes {@code BENCH_QUICK=true}.
 */
public final class CommandLineFlags {

    private CommandLineFlags() {
    }

    public static Map<String, String> parse(List<String> args) {
        return parse(args, Map.of());
    }

    /** @param switches flag name (without {@code --}) → the setting it sets to {@code true}, e.g. quick → BENCH_QUICK */
    public static Map<String, String> parse(List<String> args, Map<String, String> switches) {
        Map<String, String> settings = new HashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new IllegalArgumentException("unexpected argument '" + arg + "' (flags look like --view-api-port 8081)");
            }
            String flag = arg.substring(2);
            String value;
            int eq = flag.indexOf('=');
            if (eq >= 0) {
                value = flag.substring(eq + 1);
                flag = flag.substring(0, eq);
            } else if (switches.containsKey(flag)) {
                // A switch never swallows the next word: `--quick 5` is a mistake, not BENCH_QUICK=5.
                settings.put(switches.get(flag), "true");
                continue;
            } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
                value = args.get(++i);
            } else {
                throw new IllegalArgumentException("flag --" + flag + " needs a value");
            }
            settings.put(switches.getOrDefault(flag, settingName(flag)), value);
        }
        return settings;
    }

    /** {@code view-api-port} → {@code VIEW_API_PORT}. */
    static String settingName(String flag) {
        return flag.toUpperCase().replace('-', '_');
    }
}
