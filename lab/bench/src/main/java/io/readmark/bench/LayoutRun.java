package io.readmark.bench;

import io.readmark.bench.layouts.Layout;
import io.readmark.bench.layouts.Layout.Operation;
import io.readmark.processor.ProcessorConfig;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * One layout on one spread, on an emptied Redis: writes the spread's entries with the layout's deliveries, then
 * measures each operation on its own set of users. Bytes per entry are the {@code used_memory} delta over the entries
 * the layout's counts report (which must be every entry written); Redis time per operation is the INFO commandstats
 * {@code usec} of the commands the layout sends for it, and beside it redis-server's CPU time, over the operations.
 * Reads and pages go to users whose state nothing changed yet; a read, an author read-all and an AllRead each go to a
 * different third of the users. Last, on a layout that delivers in bursts, one big-V post goes to the users whose
 * state only reads touched, a burst of followers per script, as the product's fan-out sends it. Each time figure is
 * the median over slices of its calls, so that one stretch in which Redis waited for a core does not decide it.
 */
final class LayoutRun {

    /** Blog ids of one author's newest posts, as the memory phase numbers them: distinct per author, realistic magnitudes. */
    private static final long FIRST_BLOG_ID = 50_000_000L;
    /** After every post the spreads publish, so a read-all or AllRead at it covers everything. */
    private static final long READ_AT = Workload.EPOCH_2026 + 100_000_000_000L;
    private static final int PAGE = 20;
    /** Followers per script of a big-V's post: the fan-out worker's default burst. */
    static final int BURST = ProcessorConfig.DEFAULT_FANOUT_BURST;
    /** The big-V, an author of no spread, and its post: published after everything, so no read or floor covers it. */
    private static final long BIG_V = 1_000_000L, BIG_V_BLOG_ID = 2 * FIRST_BLOG_ID, BIG_V_AT = READ_AT + 1_000;
    /** Slices each figure's calls are cut into; the figure is their median. */
    private static final int SLICES = 10;

    /**
     * Bytes per entry, and per operation (deliveries included; a burst's per user it delivers to, and only for a
     * layout that delivers in bursts) Redis's microseconds: {@code micros} by INFO commandstats, the figure the study
     * reports, and {@code cpuMicros} by redis-server's CPU time, which also counts reading requests and writing
     * replies, and does not count time Redis's process waited for a core.
     */
    record Result(long entries, double usersWithUnread, double authorsPerUser, double bytesPerEntry, Map<Operation, Double> micros,
                  Map<Operation, Double> cpuMicros) {
    }

    /** One operation's figures over slices of its calls: each slice's time per call, and their medians. */
    private static final class Slices {
        private final RedisStats stats;
        private final Set<String> commands;
        private final List<Double> micros = new ArrayList<>(), cpuMicros = new ArrayList<>();
        private long microsStart;
        private double cpuStart;

        Slices(RedisStats stats, Set<String> commands) {
            this.stats = stats;
            this.commands = commands;
            start();
        }

        private void start() {
            microsStart = stats.commandMicros(commands);
            cpuStart = stats.cpuSeconds(); // last, so the INFO above is not in the slice's CPU time
        }

        void end(long calls) {
            double cpu = stats.cpuSeconds();
            long micros = stats.commandMicros(commands);
            if (calls > 0) {
                this.micros.add((double) (micros - microsStart) / calls);
                cpuMicros.add((cpu - cpuStart) * 1e6 / calls);
            }
            start();
        }

        void into(Operation operation, Map<Operation, Double> micros, Map<Operation, Double> cpuMicros) {
            micros.put(operation, Spread.of(this.micros).median());
            cpuMicros.put(operation, Spread.of(this.cpuMicros).median());
        }
    }

    private LayoutRun() {
    }

    static Result run(Layout layout, MemoryPhase.Population population, long seed, int operations, boolean checkEveryUser,
                      RedisStats stats) {
        long before = stats.usedMemory();
        SplittableRandom random = new SplittableRandom(seed);
        List<long[]> sample = new ArrayList<>(); // {user, author, its newest blog} of users with unread
        long written = 0, pairs = 0, sliceWritten = 0;
        Slices deliveries = new Slices(stats, layout.commandsOf(Operation.DELIVER));
        int maxUnread = population.maxUnread(), sliceUsers = Math.max(1, population.users() / SLICES);
        for (int user = 1; user <= population.users(); user++) {
            long[] first = null;
            for (int author : population.authorsOf().apply(user)) {
                int unread = population.minUnread() + random.nextInt(maxUnread - population.minUnread() + 1);
                for (int i = 0; i < unread; i++) {
                    long blogId = FIRST_BLOG_ID + (long) author * maxUnread + i;
                    layout.deliver(user, author, blogId, Workload.EPOCH_2026 + blogId * 1_000);
                }
                if (unread > 0 && first == null) first = new long[]{user, author, FIRST_BLOG_ID + (long) author * maxUnread + unread - 1};
                sliceWritten += unread;
                pairs += unread > 0 ? 1 : 0;
            }
            if (first != null) sample.add(first);
            if (user % sliceUsers == 0 || user == population.users()) {
                layout.awaitWritten();
                deliveries.end(sliceWritten);
                written += sliceWritten;
                sliceWritten = 0;
            }
        }
        long delta = stats.usedMemory() - before;
        Map<Operation, Double> micros = new EnumMap<>(Operation.class), cpuMicros = new EnumMap<>(Operation.class);
        deliveries.into(Operation.DELIVER, micros, cpuMicros);
        if (checkEveryUser) requireEveryEntry(layout, population.users(), written);

        int each = Math.min(operations, sample.size() / 3);
        List<long[]> readers = sample.subList(0, each), authorReaders = sample.subList(each, 2 * each), allReaders = sample.subList(2 * each, 3 * each);
        measure(layout, Operation.COUNTS, stats, readers, user -> layout.counts(user[0])).into(Operation.COUNTS, micros, cpuMicros);
        measure(layout, Operation.AUTHOR_PAGE, stats, readers, user -> layout.authorPage(user[0], user[1], PAGE, null))
                .into(Operation.AUTHOR_PAGE, micros, cpuMicros);
        measure(layout, Operation.MERGED_PAGE, stats, readers, user -> layout.mergedPage(user[0], PAGE, null))
                .into(Operation.MERGED_PAGE, micros, cpuMicros);
        measure(layout, Operation.READ, stats, readers, user -> layout.read(user[0], user[1], user[2], READ_AT))
                .into(Operation.READ, micros, cpuMicros);
        measure(layout, Operation.AUTHOR_READ_ALL, stats, authorReaders, user -> layout.readAll(user[0], user[1], READ_AT))
                .into(Operation.AUTHOR_READ_ALL, micros, cpuMicros);
        measure(layout, Operation.ALL_READ, stats, allReaders, user -> layout.allRead(user[0], READ_AT))
                .into(Operation.ALL_READ, micros, cpuMicros);
        // Those an author read-all or AllRead emptied would not have the spread's layout any more.
        List<List<Long>> bursts = bursts(readers, sample.subList(3 * each, sample.size()));
        if (layout.deliversInBursts() && !bursts.isEmpty()) {
            measure(layout, Operation.DELIVER_BURST, stats, bursts, BURST, burst -> layout.deliverToEach(burst, BIG_V, BIG_V_BLOG_ID, BIG_V_AT))
                    .into(Operation.DELIVER_BURST, micros, cpuMicros);
        }
        return new Result(written, sample.size(), (double) pairs / sample.size(), (double) delta / written, micros, cpuMicros);
    }

    /**
     * {@code operation} called for each of {@code users}, in {@value #SLICES} slices, each slice's writes applied before
     * its figures are read. A command's {@code usec} is wall-clock time, so one that Redis's process is descheduled
     * during (two shared cores) counts long; the median keeps one such slice out.
     */
    private static Slices measure(Layout layout, Operation operation, RedisStats stats, List<long[]> users,
                                  Consumer<long[]> call) {
        return measure(layout, operation, stats, users, 1, call);
    }

    /** As above, for calls that each change {@code usersPerCall} users: the figures are per user. */
    private static <T> Slices measure(Layout layout, Operation operation, RedisStats stats, List<T> calls, int usersPerCall,
                                      Consumer<T> call) {
        Slices slices = new Slices(stats, layout.commandsOf(operation));
        int size = Math.max(1, calls.size() / SLICES);
        for (int from = 0; from < calls.size(); from += size) {
            List<T> slice = calls.subList(from, Math.min(calls.size(), from + size));
            for (T each : slice) call.accept(each);
            layout.awaitWritten();
            slices.end((long) slice.size() * usersPerCall);
        }
        return slices;
    }

    /** The users of both lists, in whole bursts of {@value #BURST} distinct users, so the post is new to each. */
    private static List<List<Long>> bursts(List<long[]> first, List<long[]> second) {
        List<Long> users = new ArrayList<>(first.size() + second.size());
        for (List<long[]> list : List.of(first, second)) for (long[] user : list) users.add(user[0]);
        List<List<Long>> bursts = new ArrayList<>();
        for (int from = 0; from + BURST <= users.size(); from += BURST) bursts.add(List.copyOf(users.subList(from, from + BURST)));
        return bursts;
    }

    /** Every entry written is counted back, or the figures would compare layouts that did different work. */
    private static void requireEveryEntry(Layout layout, int users, long written) {
        long counted = 0;
        for (int user = 1; user <= users; user++) counted += layout.counts(user).total();
        if (counted != written) {
            throw new IllegalStateException("layout " + layout.name() + ": " + counted + " entries counted, " + written + " written");
        }
    }
}
