package io.readmark.infra;

import java.util.Arrays;
import java.util.List;

/** Reads samples out of a {@code /metrics} scrape (the Prometheus text format), for tests of the deployables. */
public final class PrometheusText {

    private PrometheusText() {
    }

    /** The sample lines of {@code name} whose labels include every one of {@code labels} ({@code key="value"}). */
    public static List<String> samples(String scrape, String name, String... labels) {
        return scrape.lines()
                .filter(line -> line.startsWith(name + "{") && Arrays.stream(labels).allMatch(line::contains))
                .toList();
    }

    /** The sum of the values of those samples. */
    public static double sum(String scrape, String name, String... labels) {
        return samples(scrape, name, labels).stream().mapToDouble(PrometheusText::value).sum();
    }

    /** The value of one sample line. */
    public static double value(String sample) {
        return Double.parseDouble(sample.substring(sample.lastIndexOf(' ') + 1));
    }
}
