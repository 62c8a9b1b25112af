package io.readmark.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The alert rules operators deploy ({@code deploy/prometheus/readmark-alerts.yml}, packaged with this module), with
 * the same expressions and thresholds but every pending time ({@code for:}) and every range window shortened, so a
 * fault of seconds fires its alert within seconds and the alert resolves soon after the fault.
 */
public final class AlertRules {

    private static final String RESOURCE = "readmark-alerts.yml";
    private static final Pattern PENDING = Pattern.compile("(?m)^(\\s+for:\\s*)\\d+[smh]\\s*$");
    private static final Pattern WINDOW = Pattern.compile("\\[\\d+[smh]]");

    private AlertRules() {
    }

    /** The deployed rules as they are. */
    public static String deployed() {
        try (InputStream in = AlertRules.class.getResourceAsStream(RESOURCE)) {
            if (in == null) throw new IllegalStateException(RESOURCE + " is not on the class path");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    /** {@code rules} with every {@code for:} set to {@code pending} and every {@code [range]} to {@code window}. */
    public static String quickened(String rules, Duration pending, Duration window) {
        Matcher pendings = PENDING.matcher(rules);
        if (!pendings.find()) throw new IllegalArgumentException("no 'for:' in the rules");
        String shorter = pendings.replaceAll("$1" + pending.toSeconds() + "s");
        Matcher windows = WINDOW.matcher(shorter);
        return windows.replaceAll("[" + window.toSeconds() + "s]");
    }
}
