package io.readmark.bench;

import io.readmark.common.config.Settings;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

/** The small pure pieces: configuration, progress rendering, INFO parsing, workload and probe-author choice. */
class BenchHelpersTest {

    @Test
    void shouldPickQuickOrFullSizesAndLetEverySettingOverrideOne() {
        BenchConfig full = BenchConfig.from(Settings.of(Map.of(), Map.of()));
        BenchConfig quick = BenchConfig.from(Settings.of(Map.of("BENCH_QUICK", "true", "BENCH_USERS", "30000"), Map.of()));

        assertThat(full.mode()).isEqualTo("full");
        assertThat(full.bigvFollowers()).isEqualTo(1_000_000);
        assertThat(quick.mode()).isEqualTo("quick");
        assertThat(quick.bigvFollowers()).isEqualTo(200_000);
        assertThat(quick.users()).isEqualTo(30_000);
        assertThat(quick.naiveDuration()).isLessThan(full.naiveDuration());
        assertThat(quick.describe()).containsEntry("BENCH_USERS", 30_000).containsEntry("BENCH_QUICK", true);
        assertThat(quick.readRepetitions()).isEqualTo(3);
        assertThat(full.readRepetitions()).isEqualTo(5);
        assertThat(BenchConfig.from(Settings.of(Map.of("BENCH_READ_REPETITIONS", "7"), Map.of())).describe())
                .containsEntry("BENCH_READ_REPETITIONS", 7);
        assertThat(quick.writeRepetitions()).isEqualTo(3);
        assertThat(quick.latencyRounds()).isEqualTo(5);
        assertThat(full.latencyRounds()).isEqualTo(5);
        assertThat(quick.readDuration()).isEqualTo(Duration.ofSeconds(5));
        assertThat(quick.readSlices()).isEqualTo(5);
        assertThat(full.readSlices()).isEqualTo(5);
        assertThat(BenchConfig.from(Settings.of(Map.of("BENCH_READ_SLICES", "1"), Map.of())).describe())
                .containsEntry("BENCH_READ_SLICES", 1);
        assertThatThrownBy(() -> BenchConfig.from(Settings.of(Map.of("BENCH_READ_SLICES", "0"), Map.of())))
                .hasMessageContaining("BENCH_READ_SLICES");
        assertThatThrownBy(() -> BenchConfig.from(Settings.of(Map.of("BENCH_LATENCY_ROUNDS", "0"), Map.of())))
                .hasMessageContaining("BENCH_LATENCY_ROUNDS");
        assertThatThrownBy(() -> BenchConfig.from(Settings.of(Map.of("BENCH_WRITE_REPETITIONS", "0"), Map.of())))
                .hasMessageContaining("BENCH_WRITE_REPETITIONS");
        assertThatThrownBy(() -> BenchConfig.from(Settings.of(Map.of("BENCH_EXPONENT", "steep"), Map.of())))
                .hasMessageContaining("BENCH_EXPONENT");
        assertThatThrownBy(() -> BenchConfig.from(Settings.of(Map.of("BENCH_AUTHORS", "200000"), Map.of())))
                .hasMessageContaining("BENCH_AUTHORS");
    }

    @Test
    void shouldServeTheComparedCountsReadOnlyAtItsPath() {
        assertThat(ServerCandidates.userId("/v1/users/42/unread")).isEqualTo(42);
        assertThat(ServerCandidates.userId("/v1/users/999999999999999999/unread")).isEqualTo(999_999_999_999_999_999L);
        assertThat(ServerCandidates.userId("/v1/users/0/unread")).isEqualTo(-1);
        assertThat(ServerCandidates.userId("/v1/users//unread")).isEqualTo(-1);
        assertThat(ServerCandidates.userId("/v1/users/4x/unread")).isEqualTo(-1);
        assertThat(ServerCandidates.userId("/v1/users/42/unread/items")).isEqualTo(-1);
        assertThat(ServerCandidates.userId("/v1/users/1234567890123456789/unread")).isEqualTo(-1);
    }

    @Test
    void shouldPickOnlyAuthorsTheUserFollows() {
        PowerLawGraph graph = PowerLawGraph.generate(300, 30, 5, 1, 7);
        java.util.SplittableRandom random = new java.util.SplittableRandom(1);
        for (int user = 1; user <= graph.users(); user++) {
            java.util.Set<Integer> followed = new java.util.HashSet<>();
            graph.forEachFollowed(user, followed::add);
            java.util.Set<Integer> picked = new java.util.HashSet<>();
            for (int i = 0; i < 50; i++) picked.add(ReadApiPhase.followedAuthor(graph, user, random));
            assertThat(followed).containsAll(picked);
            if (followed.size() <= 3) assertThat(picked).isEqualTo(followed);
        }
    }

    @Test
    void shouldRenderProgressAsOneLineWithBarPercentCountsAndTime() {
        assertThat(ProgressBar.render("pipeline", 50, 200, "deliveries", 1.25))
                .isEqualTo("pipeline   [########......................]  25%  50/200 deliveries  1.3 s");
        assertThat(ProgressBar.render("x", 300, 200, "u", 0)).contains("[" + "#".repeat(30) + "] 100%");
    }

    @Test
    void shouldReadFieldsAndCommandCallsFromRedisInfo() {
        String info = "# Commandstats\r\ncmdstat_evalsha:calls=1234,usec=99,usec_per_call=0.08,rejected_calls=0,failed_calls=1\r\n"
                + "cmdstat_eval:calls=5,usec=1\r\n# Memory\r\nused_memory:1048576\r\n";

        assertThat(RedisStats.commandCalls(info, "cmdstat_evalsha")).isEqualTo(1234);
        assertThat(RedisStats.commandCalls(info, "cmdstat_eval")).isEqualTo(5);
        assertThat(RedisStats.commandCalls(info, "cmdstat_hget")).isZero();
        assertThat(RedisStats.infoString(info, "used_memory")).isEqualTo("1048576");
    }

    @Test
    void shouldCountBusyMachineTimeWithoutIdleAndIowait() {
        // user nice system idle iowait irq softirq steal guest guest_nice, in 1/100 s
        assertThat(CpuUsage.busySeconds("cpu  1000 50 300 9000 200 10 40 0 0 0")).isEqualTo(14.0);
        assertThatThrownBy(() -> CpuUsage.busySeconds("cpu0 1 2 3 4")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldCountOneDeliveryPerPostAndFollowerAndNumberPostsUniquely() {
        PowerLawGraph graph = PowerLawGraph.generate(300, 30, 5, 1, 7);
        Workload workload = Workload.of(graph, 2, new ScriptGroups(10_000, 2_000, 20));

        assertThat(workload.posts()).hasSize(60);
        assertThat(workload.deliveries()).isEqualTo(2L * graph.edges());
        assertThat(workload.posts().stream().map(Workload.Post::blogId).distinct()).hasSize(60);
        assertThat(workload.posts().get(1).publishedAtMillis()).isGreaterThan(workload.posts().get(0).publishedAtMillis());

        Workload again = workload.repetition(1);
        assertThat(again.deliveries()).isEqualTo(workload.deliveries());
        assertThat(again.posts()).extracting(Workload.Post::authorId).isEqualTo(workload.posts().stream().map(Workload.Post::authorId).toList());
        assertThat(again.posts()).extracting(Workload.Post::blogId).doesNotContainAnyElementsOf(
                workload.posts().stream().map(Workload.Post::blogId).toList());
        assertThat(again.posts().getFirst().publishedAtMillis()).isGreaterThan(workload.posts().getLast().publishedAtMillis());
        assertThat(workload.repetition(0)).isSameAs(workload);
    }

    @Test
    void shouldGroupFollowersIntoScriptsAsTheProductDoes() {
        ScriptGroups groups = new ScriptGroups(100, 50, 20);
        // Inline, below the big-V threshold: groups of 100.
        assertThat(new ScriptGroups(300, 50, 20).of(250)).containsExactly(
                new ScriptGroups.Group(0, 100), new ScriptGroups.Group(100, 200), new ScriptGroups.Group(200, 250));
        // Big-V: chunks of 50, bursts of 20 within each.
        assertThat(groups.of(120)).containsExactly(new ScriptGroups.Group(0, 20), new ScriptGroups.Group(20, 40),
                new ScriptGroups.Group(40, 50), new ScriptGroups.Group(50, 70), new ScriptGroups.Group(70, 90),
                new ScriptGroups.Group(90, 100), new ScriptGroups.Group(100, 120));
        // A burst above 100 goes out as scripts of at most 100.
        assertThat(new ScriptGroups(100, 2_000, 150).of(400)).containsExactly(new ScriptGroups.Group(0, 100),
                new ScriptGroups.Group(100, 150), new ScriptGroups.Group(150, 250), new ScriptGroups.Group(250, 300),
                new ScriptGroups.Group(300, 400));
        assertThat(groups.scripts(120)).isEqualTo(7);
        assertThat(groups.scripts(0)).isZero();
        assertThatThrownBy(() -> new ScriptGroups(100, 50, 0)).isInstanceOf(IllegalArgumentException.class);

        PowerLawGraph graph = PowerLawGraph.generate(300, 30, 5, 1, 7);
        Workload workload = Workload.of(graph, 1, groups);
        long expected = 0;
        for (int author = 1; author <= graph.authors(); author++) expected += groups.scripts(graph.followerCount(author));
        assertThat(workload.deliveryScripts()).isEqualTo(expected);
    }

    @Test
    void shouldWriteTheCeilingsCommandsAsRespAndAcceptOnlyAnErrorFreeCompleteRun() throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        io.readmark.infra.RespCommand.write(out, java.util.List.of("EVALSHA".getBytes(), "ab".getBytes(), "1".getBytes(), new byte[0]));

        assertThat(out.toString()).isEqualTo("*4\r\n$7\r\nEVALSHA\r\n$2\r\nab\r\n$1\r\n1\r\n$0\r\n\r\n");
        String complete = "All data transferred. Waiting for the last reply...\nLast reply received from server.\nerrors: 0, replies: 12\n";
        CeilingPhase.requireEveryReply(complete, 0, 12);
        assertThatThrownBy(() -> CeilingPhase.requireEveryReply(complete, 0, 13)).hasMessageContaining("replies: 12");
        assertThatThrownBy(() -> CeilingPhase.requireEveryReply("errors: 1, replies: 12", 1, 12)).hasMessageContaining("exited 1");
        assertThatThrownBy(() -> CeilingPhase.requireEveryReply("Could not connect", 1, 12)).hasMessageContaining("Could not connect");
    }

    @Test
    void shouldProbeTheAuthorsClosestToTheTargetFollowerCountWatchingTheirHighestFollower() {
        PowerLawGraph graph = PowerLawGraph.generate(3_000, 300, 20, 0.9, 7);

        var authors = LatencyPhase.normalAuthors(graph, 100, 5, 3);

        assertThat(authors).hasSize(5).allSatisfy(a -> {
            assertThat(a.followers()).isEqualTo(graph.followerCount((int) a.authorId())).isBetween(60, 140);
            assertThat(a.lastFollower()).isEqualTo(graph.follower((int) a.authorId(), a.followers() - 1));
            assertThat(a.partition()).isBetween(0, 2);
        });
        // Kafka's murmur2 of "7" over 3 partitions, as the default partitioner computes it.
        assertThat(LatencyPhase.partitionOf(7, 3)).isEqualTo(
                org.apache.kafka.common.utils.Utils.toPositive(org.apache.kafka.common.utils.Utils.murmur2("7".getBytes())) % 3);
    }

    @Test
    void shouldTakeARepetitionAsDisturbedWhenOtherProcessesTookMoreThanAQuarterOfACoreInAPassOfItsSlices() {
        InterleavedLoad.Measurement quiet = measurement(0.05), busy = measurement(0.85), unknown = measurement(Double.NaN);

        assertThat(InterleavedLoad.disturbance(sliced(List.of(quiet, quiet), List.of(quiet, quiet)))).isNull();
        // The second pass: push's slice at 0.85 and api's at 0.05 average to 0.45 cores over that pass.
        assertThat(InterleavedLoad.disturbance(sliced(List.of(quiet, quiet), List.of(quiet, busy))))
                .isEqualTo("other processes (0.45 cores) in slice 2");
        // One busy slice among push's five: 0.21 over push's measurement, below the line; 0.45 over its pass.
        assertThat(InterleavedLoad.disturbance(sliced(List.of(quiet, quiet, quiet, quiet, quiet),
                List.of(quiet, quiet, busy, quiet, quiet)))).isEqualTo("other processes (0.45 cores) in slice 3");
        assertThat(InterleavedLoad.disturbance(sliced(List.of(unknown), List.of(unknown)))).as("no /proc/stat: nothing to go by")
                .isNull();
    }

    @Test
    void shouldTakeARepetitionAsDisturbedWhileTheJitCompiledForMoreThanATenthOfAVariantsTime() {
        // 2 s slices: 200 ms of compiling is 10 %, still warm; 201 ms is not.
        InterleavedLoad.Measurement warm = new InterleavedLoad.Measurement(null, cpu(0.05, 200)),
                compiling = new InterleavedLoad.Measurement(null, cpu(0.05, 500));

        assertThat(cpu(0.05, 201).compiling()).isTrue();
        assertThat(InterleavedLoad.disturbance(sliced(List.of(warm, warm), List.of(warm, warm)))).isNull();
        // push: 500 + 200 ms over its 4 s.
        assertThat(InterleavedLoad.disturbance(sliced(List.of(warm, warm), List.of(compiling, warm))))
                .isEqualTo("the JIT compiler (17.5 % of the time) in push");
    }

    @Test
    void shouldTakeAWriteRepetitionAsDisturbedWhenRedisRanTheSameScriptsAtAnotherSpeedInThePipeline() {
        // 100,000 deliveries each: Redis 10 µs per delivery in the ceiling.
        CeilingPhase.Result ceiling = new CeilingPhase.Result(100_000, 1.0, scripts(0.05, 1_000_000));
        NaivePhase.Result naive = new NaivePhase.Result(2_000, 1.0, cpu(0.05));

        assertThat(new WriteRound(ceiling, naive, pipeline(0.05, 1_200_000)).disturbance()).as("1.2: the JVM beside it").isNull();
        assertThat(new WriteRound(ceiling, naive, pipeline(0.05, 1_200_000))).hasToString("ceiling 100,000/s, naive 2,000/s,"
                + " pipeline 83,333/s; Redis 10.0 and 12.0 µs per delivery (1.20 times); other processes 0.05, 0.05, 0.05 cores");
        assertThat(new WriteRound(ceiling, naive, pipeline(0.05, 1_450_000)).disturbance()).isNull();
        assertThat(new WriteRound(ceiling, naive, pipeline(0.05, 900_000)).disturbance()).isNull();
        assertThat(new WriteRound(ceiling, naive, pipeline(0.05, 1_700_000)).disturbance())
                .isEqualTo("a change of the machine's speed (Redis 17.0 µs per delivery in the pipeline, 10.0 in the ceiling)");
        assertThat(new WriteRound(ceiling, naive, pipeline(0.05, 800_000)).disturbance()).as("the ceiling the slower")
                .isEqualTo("a change of the machine's speed (Redis 8.0 µs per delivery in the pipeline, 10.0 in the ceiling)");
        assertThat(new WriteRound(ceiling, new NaivePhase.Result(2_000, 1.0, cpu(0.6)), pipeline(0.05, 1_200_000)).disturbance())
                .isEqualTo("other processes (0.60 cores) in the naive baseline");
        assertThat(new WriteRound(ceiling, naive, pipeline(0.7, 1_700_000)).disturbance())
                .isEqualTo("other processes (0.70 cores) in the pipeline");
    }

    private static PipelinePhase.Result pipeline(double otherCores, double scriptMicros) {
        return new PipelinePhase.Result(100_000, 1.2, 1.1, scripts(otherCores, scriptMicros));
    }

    private static CpuUsage scripts(double otherCores, double scriptMicros) {
        return new CpuUsage(1.0, 1.0, 0.9, otherCores, 1_000, scriptMicros, 0, 0, 0, 0);
    }

    @Test
    void shouldMergeTheSlicesOfAMeasurementIntoOne() {
        Histogram fast = new Histogram(3), slow = new Histogram(3);
        for (int i = 0; i < 990; i++) fast.recordValue(100);
        for (int i = 0; i < 10; i++) slow.recordValue(5_000);
        // 1 s at 1.0 JVM core and 0.1 other, 3 s at 2.0 and 0.5: averaged over the 4 s, not over the slices.
        InterleavedLoad.Measurement merged = InterleavedLoad.Measurement.merge(List.of(
                new InterleavedLoad.Measurement(new ConcurrentLoad.Result(990, 1.0, fast),
                        new CpuUsage(1.0, 1.0, 0.2, 0.1, 10, 100, 1, 20, 2, 30)),
                new InterleavedLoad.Measurement(new ConcurrentLoad.Result(10, 3.0, slow),
                        new CpuUsage(3.0, 2.0, 0.6, 0.5, 30, 300, 2, 40, 1, 90))));

        assertThat(merged.load().requests()).isEqualTo(1000);
        assertThat(merged.load().perSecond()).isEqualTo(250.0);
        assertThat(merged.load().latencyMicros().getTotalCount()).isEqualTo(1000);
        assertThat(merged.load().latencyMicros().getMaxValue()).isBetween(4_990L, 5_010L);
        CpuUsage cpu = merged.cpu();
        assertThat(cpu.seconds()).isEqualTo(4.0);
        assertThat(cpu.javaCores()).isCloseTo(1.75, offset(1e-9));
        assertThat(cpu.redisCores()).isCloseTo(0.5, offset(1e-9));
        assertThat(cpu.otherCores()).isCloseTo(0.4, offset(1e-9));
        assertThat(List.of(cpu.scriptCalls(), cpu.gcPauses(), cpu.gcPauseMillis(), cpu.slowRedisCommands(), cpu.jitMillis()))
                .containsExactly(40L, 3L, 60L, 3L, 120L);
        assertThat(cpu.scriptMicros()).isEqualTo(400.0);
        assertThat(cpu.jitShare()).isCloseTo(0.03, offset(1e-9));
    }

    @Test
    void shouldCountThisJvmsCompilationTime() {
        long before = CpuUsage.jitMillisSoFar();
        long sum = 0;
        // A hot loop, run until the JIT has compiled it (or something else): the count never goes down, and here it goes up.
        for (int round = 0; round < 50 && CpuUsage.jitMillisSoFar() == before; round++) {
            for (int i = 0; i < 200_000; i++) sum += Long.hashCode(sum * 31 + i) ^ (i >>> 3);
        }

        assertThat(CpuUsage.jitMillisSoFar()).as("after %d", sum).isGreaterThan(before);
    }

    @Test
    void shouldRunADisturbedRepetitionAgainAtMostAsManyTimesAsThereAreRepetitions() {
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        RunsAgain runsAgain = new RunsAgain("reads", 2, new java.io.PrintStream(log, true));

        assertThat(runsAgain.shouldRunAgain(1, null)).isFalse();
        assertThat(runsAgain.shouldRunAgain(2, "other processes (0.64 cores)")).isTrue();
        assertThat(runsAgain.attemptSuffix()).isEqualTo("-again1");
        assertThat(runsAgain.shouldRunAgain(2, "the JIT compiler (12 % of the time)")).isTrue();
        assertThat(runsAgain.attemptSuffix()).isEqualTo("-again2");
        assertThat(runsAgain.shouldRunAgain(2, "other processes (0.66 cores)")).as("no runs left: kept").isFalse();
        assertThat(runsAgain.attemptSuffix()).isEmpty();
        assertThat(runsAgain.shouldRunAgain(3, "other processes (0.50 cores)")).isFalse();

        assertThat(runsAgain.repetitionsRunAgain()).isEqualTo(2);
        assertThat(runsAgain.disturbedKept()).isEqualTo(2);
        assertThat(log.toString()).contains("reads: repetition 2 disturbed by other processes (0.64 cores), run again")
                .contains("reads: repetition 2 disturbed by the JIT compiler (12 % of the time), run again")
                .contains("reads: repetition 3 disturbed by other processes (0.50 cores), kept: no runs left");
    }

    @Test
    void shouldTakeALatencyRoundAsDisturbedWhenAnyOfItsWindowsWas() {
        CpuUsage quiet = cpu(0.05), busy = cpu(0.64);

        assertThat(round(quiet, quiet, quiet).disturbed()).isFalse();
        assertThat(round(busy, quiet, quiet).disturbed()).as("idle window").isTrue();
        assertThat(round(quiet, busy, quiet).disturbed()).as("big-V window").isTrue();
        assertThat(round(quiet, quiet, busy).disturbed()).as("the delete").isTrue();
        assertThat(round(quiet, quiet, quiet).disturbance()).isNull();
        assertThat(round(quiet, busy, quiet).disturbance()).isEqualTo("other processes (idle 0.05, big-V 0.64, delete 0.05 cores)");
    }

    @Test
    void shouldCountThisJvmsCollectorPauses() {
        long pauses = CpuUsage.gcPausesSoFar();
        long millis = CpuUsage.gcPauseMillisSoFar();

        System.gc(); // a full collection, a pause with every collector the bench may run with

        assertThat(CpuUsage.gcPausesSoFar()).isGreaterThan(pauses);
        assertThat(CpuUsage.gcPauseMillisSoFar()).isGreaterThanOrEqualTo(millis);
    }

    private static LatencyPhase.Round round(CpuUsage idle, CpuUsage bigv, CpuUsage delete) {
        return new LatencyPhase.Round(null, idle, null, bigv, 5.0, 400_000, new LatencyPhase.BigvDelete(3.0, 200_000, delete));
    }

    /** Two variants, api and push, each with its slices in order. */
    private static Map<String, List<InterleavedLoad.Measurement>> sliced(List<InterleavedLoad.Measurement> api,
                                                                        List<InterleavedLoad.Measurement> push) {
        Map<String, List<InterleavedLoad.Measurement>> sliced = new LinkedHashMap<>();
        sliced.put("api", api);
        sliced.put("push", push);
        return sliced;
    }

    private static InterleavedLoad.Measurement measurement(double otherCores) {
        return new InterleavedLoad.Measurement(null, cpu(otherCores));
    }

    private static CpuUsage cpu(double otherCores) {
        return cpu(otherCores, 0);
    }

    /** A 2-second measurement. */
    private static CpuUsage cpu(double otherCores, long jitMillis) {
        return new CpuUsage(2.0, 1.2, 0.3, otherCores, 0, 0, 0, 0, 0, jitMillis);
    }
}
