package io.readmark.view.push;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.readmark.common.http.ApiException;
import io.readmark.common.http.Problem;
import io.readmark.store.redis.RedisConnections;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The unread streams open on this instance: admission within {@link StreamSettings#perUser} and
 * {@link StreamSettings#maxStreams}, starts paced by {@link StreamOpenings}, and upkeep every heartbeat (streams whose
 * lifetime is over ended, a comment line on each other stream, the users' live keys refreshed). One timer serves every
 * stream, ticking {@link HeartbeatSlices#SLICES} times a heartbeat, each tick serving one slice of the users, so that
 * no tick queues a write for every stream on the event loops at once, with pushes waiting behind them; a stream ends
 * at its slice's first tick after its lifetime, at most a heartbeat late. A tick refreshes its users' live keys in one
 * pipeline ({@link LiveKeys#refresh}), on a connection kept for it. Counts what happens to streams in the metrics.
 */
public final class OpenStreams implements UnreadStream.Owner, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OpenStreams.class);

    private final StreamSettings settings;
    private final LiveKeys liveKeys;
    private final Supplier<Optional<RedisConnections>> redis;
    /** The live keys' own connection, auto-flush off: opened by the first tick that has keys to refresh. */
    private volatile RedisConnections.Connection refreshing;
    private final Map<Long, Integer> admittedPerUser = new HashMap<>(); // guarded by this
    private int admitted; // guarded by this
    private final Set<UnreadStream> streams = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("view-api-stream-heartbeat").daemon().factory());
    private final Counter pushes;
    private final Map<String, Counter> dropped = new HashMap<>();
    private final StreamOpenings openings;
    private int slice; // the ticker's only
    private long noOpenBefore = System.nanoTime(); // the ticker's only: when the live keys' connection may be opened

    /** @param redis the client once connected, for the live keys' connection */
    public OpenStreams(StreamSettings settings, LiveKeys liveKeys, Supplier<Optional<RedisConnections>> redis,
                MeterRegistry registry) {
        this.settings = settings;
        this.liveKeys = liveKeys;
        this.redis = redis;
        this.openings = new StreamOpenings(settings.opensPerSecond(), System::nanoTime);
        Gauge.builder("readmark.streams.open", streams, Set::size).description("unread streams open").register(registry);
        pushes = Counter.builder("readmark.stream.pushes").description("counts pushed on unread streams after a change")
                .register(registry);
        for (String reason : List.of("slow", "redis", "token-expired", "max-age", "limit-user", "limit-instance", "limit-rate")) {
            dropped.put(reason, Counter.builder("readmark.streams.dropped").tag("reason", reason)
                    .description("unread streams closed by the server or refused, by reason").register(registry));
        }
        long every = Math.max(1, settings.heartbeat().toNanos() / HeartbeatSlices.SLICES);
        ticker.scheduleAtFixedRate(this::tick, every, every, TimeUnit.NANOSECONDS);
    }

    /** Reserves a place for one more stream of the user, or refuses naming the limit: 429 per user, 503 per instance. */
    synchronized void admit(long userId) {
        if (admitted >= settings.maxStreams()) {
            dropped.get("limit-instance").increment();
            throw ApiException.unavailable("Too many streams", "this instance serves at most " + settings.maxStreams()
                    + " unread streams (" + StreamSettings.MAX_STREAMS + "); retry, possibly on another instance", 5);
        }
        int ofUser = admittedPerUser.getOrDefault(userId, 0);
        if (ofUser >= settings.perUser()) {
            dropped.get("limit-user").increment();
            throw new ApiException(Problem.of(429, "Too many streams", "a user may have at most " + settings.perUser()
                    + " unread streams open on one instance (" + StreamSettings.PER_USER + "); close one first"),
                    Map.of("Retry-After", "5"));
        }
        admittedPerUser.put(userId, ofUser + 1);
        admitted++;
    }

    /**
     * Waits for this start's turn ({@link StreamOpenings}), or refuses it with a 503 whose {@code Retry-After} is drawn
     * from 1 to 5 s, so the clients refused together do not come back together. Blocks: call it on a request's own
     * (virtual) thread.
     */
    void awaitTurn() {
        long wait = openings.reserve();
        if (wait < 0) {
            dropped.get("limit-rate").increment();
            int retryAfter = 1 + ThreadLocalRandom.current().nextInt(5);
            throw ApiException.unavailable("Too many streams starting", "this instance starts at most "
                    + settings.opensPerSecond() + " unread streams a second (" + StreamSettings.OPENS_PER_SECOND
                    + "); retry after " + retryAfter + " s", retryAfter);
        }
        if (wait > 0) LockSupport.parkNanos(wait);
    }

    void opened(UnreadStream stream) {
        streams.add(stream);
        // It may have ended while it started (its subscription lost): ended() ran before this add and removed nothing.
        if (stream.isEnded()) streams.remove(stream);
    }

    @Override
    public void pushed() {
        pushes.increment();
    }

    @Override
    public void ended(UnreadStream stream, UnreadStream.Ending ending) {
        streams.remove(stream);
        synchronized (this) {
            admitted--;
            admittedPerUser.computeIfPresent(stream.userId(), (user, count) -> count == 1 ? null : count - 1);
        }
        if (ending.reason != null) dropped.get(ending.reason).increment();
    }

    @Override
    public void schedule(Runnable task, long delayMillis) {
        ticker.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
    }

    /** An exception ends a scheduled task's repetitions for good: one tick's failure must not end every later one. */
    private void tick() {
        try {
            upkeep();
        } catch (RuntimeException e) {
            log.atWarn().setCause(e).log("stream upkeep failed; the next tick tries again");
        }
    }

    private void upkeep() {
        int current = slice;
        slice = (current + 1) % HeartbeatSlices.SLICES;
        Map<Long, List<UnreadStream>> byUser = new HashMap<>();
        for (UnreadStream stream : streams) {
            if (HeartbeatSlices.of(stream.userId()) != current || stream.endIfOver()) continue;
            stream.heartbeat();
            byUser.computeIfAbsent(stream.userId(), user -> new ArrayList<>()).add(stream);
        }
        RedisConnections client = redis.get().orElse(null);
        if (byUser.isEmpty() || client == null) return;
        RedisConnections.Connection connection;
        try {
            connection = refreshing(client);
        } catch (RuntimeException e) { // Redis unreachable: as a refresh that failed, below
            byUser.values().forEach(ofUser -> ofUser.forEach(OpenStreams::refreshFailed));
            return;
        }
        liveKeys.refresh(connection, byUser.keySet()).forEach((user, refreshed) -> refreshed.whenComplete((expired, failure) -> {
            List<UnreadStream> ofUser = byUser.get(user);
            if (failure != null) {
                ofUser.forEach(OpenStreams::refreshFailed);
                return;
            }
            ofUser.forEach(UnreadStream::refreshSucceeded);
            // Expired meanwhile: changes may have gone unpublished, so the streams read again.
            if (expired) ofUser.forEach(UnreadStream::resync);
        }));
    }

    /**
     * Not refreshed: the key still lives a few heartbeats, and a later refresh that finds it expired makes the stream
     * read again; only failures in a row, which would let it expire unnoticed, end the stream (to start over elsewhere).
     */
    private static void refreshFailed(UnreadStream stream) {
        if (stream.refreshFailed()) stream.end(UnreadStream.Ending.REDIS);
    }

    /**
     * The live keys' connection, opened on first use (blocking this timer's thread only). After a failed open the next
     * attempt waits a heartbeat, so that the ticks of the other slices do not each wait out a connect timeout.
     */
    private RedisConnections.Connection refreshing(RedisConnections client) {
        RedisConnections.Connection current = refreshing;
        if (current != null) return current;
        if (System.nanoTime() - noOpenBefore < 0) throw new IllegalStateException("the live keys' connection failed to open");
        try {
            current = client.open();
        } catch (RuntimeException e) {
            noOpenBefore = System.nanoTime() + settings.heartbeat().toNanos();
            throw e;
        }
        current.stateful().setAutoFlushCommands(false);
        refreshing = current;
        return current;
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        streams.forEach(stream -> stream.end(UnreadStream.Ending.CLIENT));
        RedisConnections.Connection current = refreshing;
        if (current != null) current.close();
    }
}
