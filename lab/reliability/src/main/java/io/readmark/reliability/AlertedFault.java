package io.readmark.reliability;

import java.time.Duration;
import java.time.Instant;
import java.util.Random;

/**
 * A fault an operator must be told of: its alert must fire in Prometheus while the fault lasts or just after (bad
 * records are dead-lettered after the burst is stored), and must resolve once the system is whole again. Either not
 * happening fails the fault like a system that did not recover.
 */
public final class AlertedFault implements Fault {

    private static final Duration FIRE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration RESOLVE_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration POLL = Duration.ofMillis(500);

    private final Fault fault;
    private final String alert;
    private final PrometheusServer prometheus;
    private int confirmed;

    public AlertedFault(Fault fault, String alert, PrometheusServer prometheus) {
        this.fault = fault;
        this.alert = alert;
        this.prometheus = prometheus;
    }

    @Override
    public String name() {
        return fault.name();
    }

    public Fault fault() {
        return fault;
    }

    public String alert() {
        return alert;
    }

    @Override
    public synchronized void inject(Harness harness, Random random) throws Exception {
        Poll.until(() -> !prometheus.active().contains(alert), RESOLVE_TIMEOUT, POLL,
                () -> alert + " was already active before " + fault.name() + ": " + prometheus.active());
        Instant started = Instant.now();
        fault.inject(harness, random);
        Poll.until(() -> prometheus.firedSince(alert, started), FIRE_TIMEOUT, POLL,
                () -> alert + " did not fire for " + fault.name() + "; active: " + prometheus.active());
        Poll.until(() -> !prometheus.active().contains(alert), RESOLVE_TIMEOUT, POLL,
                () -> alert + " did not resolve after " + fault.name());
        confirmed++;
    }

    /** Injections whose alert fired and resolved. */
    public synchronized int confirmed() {
        return confirmed;
    }
}
