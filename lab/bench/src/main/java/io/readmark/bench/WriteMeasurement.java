package io.readmark.bench;

/** One measurement of a write phase: deliveries counted in Redis, how long they took, and the CPU spent meanwhile. */
interface WriteMeasurement {

    long deliveries();

    double seconds();

    CpuUsage cpu();

    default double perSecond() {
        return deliveries() / seconds();
    }
}
