package io.readmark.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One figure over interleaved repetitions: the median is what is reported, min and max how far the repetitions
 * disagree. On a noisy shared machine a single measurement says little; the spread says how much.
 *
 * @param runs the value of every repetition, in the order they ran
 */
record Spread(double median, double min, double max, List<Double> runs) {

    Spread {
        runs = List.copyOf(runs);
    }

    /** The median (the mean of the middle two for an even count), minimum and maximum of {@code runs}. */
    static Spread of(List<Double> runs) {
        if (runs.isEmpty()) throw new IllegalArgumentException("a spread needs at least one value");
        List<Double> sorted = new ArrayList<>(runs);
        sorted.sort(null);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Spread(median, sorted.getFirst(), sorted.getLast(), runs);
    }

    /**
     * The spread of {@code numerators[i] / denominators[i]}: a ratio within each repetition, so both sides of every
     * ratio saw the same state of the machine, rather than a ratio of two medians taken at different times.
     */
    static Spread ofRatios(List<Double> numerators, List<Double> denominators) {
        if (numerators.size() != denominators.size()) {
            throw new IllegalArgumentException("ratios need as many numerators as denominators: "
                    + numerators.size() + " and " + denominators.size());
        }
        List<Double> ratios = new ArrayList<>(numerators.size());
        for (int i = 0; i < numerators.size(); i++) ratios.add(numerators.get(i) / denominators.get(i));
        return of(ratios);
    }

    /** For the JSON report. */
    Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("median", median);
        map.put("min", min);
        map.put("max", max);
        map.put("runs", runs);
        return map;
    }

    /** {@code "min–max"}, formatted as the report formats values. */
    String range() {
        return BenchReport.format(min) + "–" + BenchReport.format(max);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s (%s)", BenchReport.format(median), range());
    }
}
