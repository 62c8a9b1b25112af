package io.readmark.bench;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

/**
 * How many cores this JVM, redis-server and everything else on the machine kept busy during one phase. On a
 * two-core machine the pipeline's JVM (Kafka broker, stream threads, clients) and Redis compete for the same cores,
 * so every rate is read beside these; {@code otherCores} shows when something outside the benchmark interfered.
 * Redis's time inside scripts tells how much of its CPU the delivery scripts themselves take; this JVM's collector
 * pauses how long every thread in it (broker, stream threads, probes) stood still; Redis's slow commands how often a
 * command ran far longer than the bench's commands normally do ({@link RedisStats#slowCommands()}); the JIT's
 * compilation time whether this JVM was still compiling, on the same two cores.
 */
record CpuUsage(double seconds, double javaCores, double redisCores, double otherCores, long scriptCalls,
                double scriptMicros, long gcPauses, long gcPauseMillis, long slowRedisCommands, long jitMillis) {

    /**
     * Other processes' CPU, in cores, above which a measurement is disturbed: on a shared machine a neighbour's burst
     * otherwise decides a ratio's range, and with it the verdict.
     */
    static final double DISTURBED_OTHER_CORES = 0.25;

    /** Whether processes outside the bench took more than {@value #DISTURBED_OTHER_CORES} of a core (false if unknown). */
    boolean disturbed() {
        return otherCores > DISTURBED_OTHER_CORES;
    }

    /**
     * The JIT's compilation time, as a share of a measurement's, above which this JVM is still warming up: its compiler
     * threads then take CPU from the measured code on the same cores. It is wall-clock time summed over the compiler
     * threads (a descheduled compile counts too).
     */
    static final double COMPILING_SHARE = 0.10;

    /**
     * Why this measurement does not show the steady state, or null: processes outside the bench took more than
     * {@value #DISTURBED_OTHER_CORES} of a core, or the JIT compiled for more than {@value #COMPILING_SHARE} of it.
     */
    String disturbance() {
        if (disturbed()) return String.format(Locale.ROOT, "other processes (%.2f cores)", otherCores);
        if (compiling()) return String.format(Locale.ROOT, "the JIT compiler (%.1f %% of the time)", jitShare() * 100);
        return null;
    }

    /** Whether the JIT compiled for more than {@value #COMPILING_SHARE} of the measurement (false if unknown). */
    boolean compiling() {
        return jitShare() > COMPILING_SHARE;
    }

    /** The JIT's compilation time (wall clock, summed over its threads) per second of the measurement. */
    double jitShare() {
        return jitMillis / 1000.0 / seconds;
    }

    /** Milliseconds this JVM stood still in collector pauses, per second of the measurement. */
    double gcPauseMillisPerSecond() {
        return gcPauseMillis / seconds;
    }

    /** Redis commands that ran {@link RedisStats#SLOW_COMMAND_MICROS} or longer, per second of the measurement. */
    double slowRedisCommandsPerSecond() {
        return slowRedisCommands / seconds;
    }

    /**
     * The same window with {@code cores} of a process the bench runs itself besides Redis (a replica) taken out of
     * other processes', so that they alone judge whether a neighbour disturbed it.
     */
    CpuUsage excluding(double cores) {
        return new CpuUsage(seconds, javaCores, redisCores, Math.max(0, otherCores - cores), scriptCalls, scriptMicros,
                gcPauses, gcPauseMillis, slowRedisCommands, jitMillis);
    }

    /** Several measurements as one: their seconds, calls, pauses and commands added, their cores averaged over time. */
    static CpuUsage merge(List<CpuUsage> parts) {
        double seconds = parts.stream().mapToDouble(CpuUsage::seconds).sum();
        return new CpuUsage(seconds, timeWeighted(parts, CpuUsage::javaCores, seconds),
                timeWeighted(parts, CpuUsage::redisCores, seconds), timeWeighted(parts, CpuUsage::otherCores, seconds),
                sum(parts, CpuUsage::scriptCalls), parts.stream().mapToDouble(CpuUsage::scriptMicros).sum(),
                sum(parts, CpuUsage::gcPauses), sum(parts, CpuUsage::gcPauseMillis), sum(parts, CpuUsage::slowRedisCommands),
                sum(parts, CpuUsage::jitMillis));
    }

    private static double timeWeighted(List<CpuUsage> parts, ToDoubleFunction<CpuUsage> cores, double seconds) {
        return parts.stream().mapToDouble(part -> cores.applyAsDouble(part) * part.seconds()).sum() / seconds;
    }

    private static long sum(List<CpuUsage> parts, ToLongFunction<CpuUsage> value) {
        return parts.stream().mapToLong(value).sum();
    }

    /** A running measurement; {@link #stop()} turns it into the averages since it started. */
    static final class Meter {
        private final RedisStats redis;
        private final long startNanos = System.nanoTime();
        private final long javaStart = javaCpuNanos();
        private final double machineStart = machineBusySeconds();
        private final double redisStart;
        private final long callsStart;
        private final long scriptMicrosStart;
        private final long gcPausesStart = gcPausesSoFar();
        private final long gcPauseMillisStart = gcPauseMillisSoFar();
        private final long slowCommandsStart;
        private final long jitStart = jitMillisSoFar();

        Meter(RedisStats redis) {
            this.redis = redis;
            this.redisStart = redis.cpuSeconds();
            this.callsStart = redis.scriptCalls();
            this.scriptMicrosStart = redis.scriptMicros();
            this.slowCommandsStart = redis.slowCommands();
        }

        CpuUsage stop() {
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            double java = (javaCpuNanos() - javaStart) / 1e9;
            double redisCpu = redis.cpuSeconds() - redisStart;
            double machine = machineBusySeconds() - machineStart;
            double other = Double.isNaN(machine) ? Double.NaN : Math.max(0, machine - java - redisCpu);
            long calls = redis.scriptCalls() - callsStart;
            double micros = redis.scriptMicros() - scriptMicrosStart;
            return new CpuUsage(seconds, java / seconds, redisCpu / seconds, other / seconds, calls, micros,
                    gcPausesSoFar() - gcPausesStart, gcPauseMillisSoFar() - gcPauseMillisStart, redis.slowCommands() - slowCommandsStart,
                    jitMillisSoFar() - jitStart);
        }
    }

    static Meter start(RedisStats redis) {
        return new Meter(redis);
    }

    private static long javaCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /**
     * Collector pauses of this JVM so far. Every collector bean counts pauses except the "Cycles" beans of ZGC and
     * Shenandoah, which count concurrent cycles (ZGC's pauses have beans of their own).
     */
    static long gcPausesSoFar() {
        return pauseCollectors().mapToLong(GarbageCollectorMXBean::getCollectionCount).filter(count -> count > 0).sum();
    }

    static long gcPauseMillisSoFar() {
        return pauseCollectors().mapToLong(GarbageCollectorMXBean::getCollectionTime).filter(millis -> millis > 0).sum();
    }

    private static Stream<GarbageCollectorMXBean> pauseCollectors() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().filter(bean -> !bean.getName().endsWith("Cycles"));
    }

    /** The JIT's compilation time so far, in ms, summed over its compiler threads; 0 where the JVM does not tell. */
    static long jitMillisSoFar() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    /** Busy CPU seconds of the whole machine since boot (Linux {@code /proc/stat}); NaN elsewhere. */
    static double machineBusySeconds() {
        try {
            return busySeconds(Files.readAllLines(Path.of("/proc/stat")).getFirst());
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** From the aggregate {@code cpu} line: everything but idle and iowait, in USER_HZ (1/100 s) ticks. */
    static double busySeconds(String cpuLine) {
        String[] fields = cpuLine.trim().split("\\s+");
        if (!fields[0].equals("cpu")) throw new IllegalArgumentException("not the aggregate cpu line: " + cpuLine);
        long busy = 0;
        for (int i = 1; i < fields.length && i <= 8; i++) {
            if (i != 4 && i != 5) busy += Long.parseLong(fields[i]); // 4 = idle, 5 = iowait
        }
        return busy / 100.0;
    }

    @Override
    public String toString() {
        return String.format("java %.2f cores, redis %.2f cores, other %.2f cores, %d GC pauses (%d ms), %d Redis commands over %d ms, JIT %d ms",
                javaCores, redisCores, otherCores, gcPauses, gcPauseMillis, slowRedisCommands, RedisStats.SLOW_COMMAND_MICROS / 1000,
                jitMillis);
    }
}
