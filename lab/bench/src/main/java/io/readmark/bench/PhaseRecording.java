package io.readmark.bench;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * An optional JFR recording of exactly one phase, written to {@code <BENCH_JFR>/<phase>.jfr}, so what limits a
 * figure is read from a profile of that figure's measurement and nothing else. Uses JFR's "profile" settings with
 * denser samples: a phase lasts seconds, and the default 10-20 ms period leaves too few samples to rank methods.
 * CPU-time samples ({@code jdk.CPUTimeSample}) exist on JDK 25+ and are silently skipped before.
 */
final class PhaseRecording implements AutoCloseable {

    private final Recording recording;
    private final Path file;
    private final PrintStream err;

    private PhaseRecording(Recording recording, Path file, PrintStream err) {
        this.recording = recording;
        this.file = file;
        this.err = err;
    }

    /** Starts recording if {@code directory} is present; otherwise a no-op whose close does nothing. */
    static PhaseRecording start(Optional<Path> directory, String phase, PrintStream err) {
        if (directory.isEmpty()) return new PhaseRecording(null, null, err);
        try {
            Recording recording = new Recording(Configuration.getConfiguration("profile"));
            recording.setName("readmark-bench-" + phase);
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
            recording.enable("jdk.NativeMethodSample").withPeriod(Duration.ofMillis(1));
            recording.enable("jdk.ThreadCPULoad").withPeriod(Duration.ofSeconds(1));
            recording.enable("jdk.CPUTimeSample").with("throttle", "1ms");
            recording.start();
            return new PhaseRecording(recording, directory.get().resolve(phase + ".jfr"), err);
        } catch (IOException | ParseException e) {
            throw new IllegalStateException("cannot start a JFR recording", e);
        }
    }

    /** Runs {@code work} inside a recording of {@code phase} (if recordings are on) and returns its result. */
    static <T> T during(Optional<Path> directory, String phase, PrintStream err, Callable<T> work) throws Exception {
        PhaseRecording recording = start(directory, phase, err);
        try {
            return work.call();
        } finally {
            recording.close();
        }
    }

    @Override
    public void close() {
        if (recording == null) return;
        try {
            recording.stop();
            Files.createDirectories(file.toAbsolutePath().getParent());
            recording.dump(file);
            recording.close();
            err.println("bench: JFR recording written to " + file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
