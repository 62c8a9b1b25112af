package io.readmark.reliability;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.readmark.common.config.Settings;
import io.readmark.infra.Infrastructure;
import io.readmark.infra.KafkaTopics;
import io.readmark.infra.PrometheusText;
import io.readmark.infra.TestInfrastructure;
import io.readmark.processor.ProcessorConfig;
import io.readmark.processor.StreamProcessor;
import io.readmark.processor.commit.CaughtUp;
import io.readmark.reliability.BadRecords.BadRecord;
import io.readmark.reliability.BadRecords.Target;
import io.readmark.schemas.DeadLetterHeaders;
import io.readmark.schemas.Topics;
import io.readmark.store.redis.RedisConnections;
import io.readmark.store.unread.UnreadKeys;
import io.readmark.store.unread.UnreadItem;
import io.readmark.store.unread.UnreadCounts;
import io.readmark.store.unread.UnreadReader;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Thousands of bad records of every kind, interleaved with valid traffic on the three event topics and the fan-out
 * chunk topic, against a running stream processor (main topology and fan-out worker): every valid event is applied,
 * every bad record is on the dead-letter topic exactly once with its category and source coordinates, the metric
 * counts them by topic and reason, and the processor never stops. {@code -Dreadmark.poison.seed} and
 * {@code -Dreadmark.poison.records} rerun it with another seed or size.
 */
class PoisonPillIT {

    private static final long SEED = Long.getLong("readmark.poison.seed", 20_260_101L);
    private static final int BAD_RECORDS = Integer.getInteger("readmark.poison.records", 3_000);
    private static final Duration WITHIN = Duration.ofSeconds(120);
    private static final Set<String> STATES_THAT_PROCESS = Set.of("RUNNING", "REBALANCING");

    private static final long[] AUTHORS = {1, 2, 3, 4, 5, 6};
    private static final long FIRST_USER = 101;
    private static final int USERS = 60;
    private static final int BIG_V_THRESHOLD = 20;
    private static final int BLOGS_PER_AUTHOR = 30;
    private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");

    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void quietDeadLetterWarnings() {
        // Thousands of dead letters would each log a warning; the assertions below say what matters.
        ((Logger) LoggerFactory.getLogger("io.readmark.processor.deadletters.DeadLetters")).setLevel(Level.ERROR);
    }

    @Test
    void shouldDeadLetterEveryBadRecordOnceApplyEveryValidEventAndNeverStop() throws Exception {
        // Given a processor with both roles on topics of its own; authors with 20 followers go the big-V way
        Infrastructure infra = TestInfrastructure.shared();
        String run = "poison-" + UUID.randomUUID().toString().substring(0, 8);
        Topics topics = Topics.named("blog-" + run, "follow-" + run, "read-" + run, "dlq-" + run, "fanout-" + run, "notice-" + run);
        KafkaTopics.createTopics(infra.kafkaBootstrapServers(), Map.of(topics.blogEvents().name(), 3, topics.noticeEvents().name(), 3,
                topics.followEvents().name(), 3, topics.readEvents().name(), 3, topics.fanoutChunks().name(), 3,
                topics.deadLetters().name(), 1));
        Map<String, String> settings = new HashMap<>(Map.of(
                "KAFKA_BOOTSTRAP_SERVERS", infra.kafkaBootstrapServers(),
                "REDIS_URL", infra.redisUrl(),
                "READMARK_REDIS_PREFIX", run,
                "READMARK_TOPIC_BLOG_EVENTS", topics.blogEvents().name(),
                "READMARK_TOPIC_FOLLOW_EVENTS", topics.followEvents().name(),
                "READMARK_TOPIC_READ_EVENTS", topics.readEvents().name(),
                "READMARK_TOPIC_DLQ", topics.deadLetters().name(),
                "READMARK_TOPIC_FANOUT", topics.fanoutChunks().name(),
                "PROCESSOR_APPLICATION_ID", run,
                "PROCESSOR_STATE_DIR", Files.createTempDirectory(run).toString()));
        settings.putAll(Map.of("READMARK_TOPIC_NOTICE_EVENTS", topics.noticeEvents().name(), "PROCESSOR_HTTP_HOST", "127.0.0.1", "PROCESSOR_HTTP_PORT", "0",
                "PROCESSOR_BIGV_THRESHOLD", Integer.toString(BIG_V_THRESHOLD), "PROCESSOR_FANOUT_CHUNK_SIZE", "8"));
        Random random = new Random(SEED);
        BadRecords catalogue = new BadRecords(SEED);
        ValidTraffic valid = new ValidTraffic(random);

        try (StreamProcessor processor = StreamProcessor.start(ProcessorConfig.from(Settings.of(settings, Map.of())));
             StateWatch states = new StateWatch(processor);
             RedisConnections redis = RedisConnections.connect(infra.redisUrl(), Duration.ofSeconds(10), false);
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, infra.kafkaBootstrapServers()));
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.kafkaBootstrapServers(),
                     ProducerConfig.ACKS_CONFIG, "all",
                     ProducerConfig.LINGER_MS_CONFIG, 5,
                     ProducerConfig.MAX_REQUEST_SIZE_CONFIG, BadRecords.KAFKA_RECORD_LIMIT),
                     new ByteArraySerializer(), new ByteArraySerializer())) {
            assertThat(processor.awaitRunning(Duration.ofSeconds(60))).as(processor.state()).isTrue();
            states.start();
            Sender sender = new Sender(producer, topics);

            // When the follow graph is built, with bad records on every topic in between
            List<List<BadRecord>> bad = splitIntoPhases(badRecords(catalogue, random));
            sender.interleave(valid.follows(), bad.get(0), random);
            CaughtUp.await(admin, run, List.of(topics.followEvents().name()), WITHIN);

            // and publishes, deletes, reads and read-alls, then unfollows, arrive among thousands of bad records
            sender.interleave(valid.publishesDeletesAndReads(), bad.get(1), random);
            sender.interleave(valid.unfollows(), bad.get(2), random);
            Map<Source, BadRecord> sent = sender.badRecordsBySource();

            // Then every valid event is applied: Redis holds exactly the unread state of the valid traffic
            RedisState actual = new RedisState(redis, new UnreadKeys(run));
            await().atMost(WITHIN).pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertThat(actual.read(valid.users(), AUTHORS)).isEqualTo(valid.expected()));
            // and everything read was committed, so nothing more will reach the dead-letter topic
            CaughtUp.await(admin, run, List.of(topics.blogEvents().name(), topics.followEvents().name(), topics.readEvents().name()), WITHIN);
            await().atMost(WITHIN).until(() -> CaughtUp.committedToEnd(admin, run + "-fanout", List.of(topics.fanoutChunks().name())));

            // and every bad record is on the dead-letter topic exactly once, with its category and where it came from
            List<ConsumerRecord<byte[], byte[]>> deadLetters = readAll(infra, topics.deadLetters().name());
            Map<Source, Integer> copies = new HashMap<>();
            for (ConsumerRecord<byte[], byte[]> copy : deadLetters) {
                Source source = new Source(header(copy, DeadLetterHeaders.SOURCE_TOPIC),
                        Integer.parseInt(header(copy, DeadLetterHeaders.SOURCE_PARTITION)),
                        Long.parseLong(header(copy, DeadLetterHeaders.SOURCE_OFFSET)));
                BadRecord original = sent.get(source);
                assertThat(original).as("dead letter from %s is one of the bad records (no valid event)", source).isNotNull();
                assertThat(copies.merge(source, 1, Integer::sum)).as("copies of %s", original).isOne();
                assertThat(header(copy, DeadLetterHeaders.CATEGORY)).as("category of %s", original)
                        .isEqualTo(original.category().label());
                assertThat(header(copy, DeadLetterHeaders.REASON)).as("reason of %s", original).isNotBlank().hasSizeLessThan(600);
                assertCopyOf(copy, original);
            }
            assertThat(sent.keySet().stream().filter(source -> !copies.containsKey(source)).map(sent::get))
                    .as("bad records missing from the dead-letter topic").isEmpty();
            assertThat(deadLetters).hasSameSizeAs(sent.keySet());

            // and the metric counts them by source topic and reason
            String scrape = get("http://127.0.0.1:" + processor.httpPort() + "/metrics").body();
            Map<String, Long> expectedCounts = sent.values().stream().collect(Collectors.groupingBy(
                    record -> record.target().topic(topics) + " " + record.category().label(), TreeMap::new, Collectors.counting()));
            Map<String, Long> actualCounts = new TreeMap<>();
            expectedCounts.keySet().forEach(topicAndReason -> {
                String[] parts = topicAndReason.split(" ");
                actualCounts.put(topicAndReason, (long) PrometheusText.sum(scrape, "readmark_dlq_records_total",
                        "topic=\"" + parts[0] + "\"", "reason=\"" + parts[1] + "\""));
            });
            assertThat(actualCounts).isEqualTo(expectedCounts);
            assertThat(PrometheusText.sum(scrape, "readmark_dlq_records_total")).isEqualTo(sent.size());

            // and the processor never stopped: no thread died, it was only ever running or rebalancing, and it is ready
            assertThat(processor.failedStreamThreads()).isZero();
            assertThat(states.seen()).isSubsetOf(STATES_THAT_PROCESS);
            assertThat(get("http://127.0.0.1:" + processor.httpPort() + "/health/ready").statusCode()).isEqualTo(200);
            System.out.printf("poison pills: %d bad records (%d kinds, %d MB) among %d valid events; %d dead letters%n",
                    sent.size(), sent.values().stream().map(BadRecord::kind).distinct().count(),
                    sent.values().stream().mapToLong(BadRecord::size).sum() / 1_000_000, valid.count(), deadLetters.size());
        }
    }

    /** One of every kind on every topic, the rest random, spread evenly over the four topics. */
    private static List<BadRecord> badRecords(BadRecords catalogue, Random random) {
        List<BadRecord> records = new ArrayList<>();
        for (Target target : Target.values()) {
            List<BadRecord> forTarget = new ArrayList<>(catalogue.everyKind(target));
            while (forTarget.size() < BAD_RECORDS / Target.values().length) forTarget.add(catalogue.next(target));
            records.addAll(forTarget);
        }
        Collections.shuffle(records, random);
        return records;
    }

    /** A fifth among the follows, three fifths among the publishes and reads, the rest among the unfollows. */
    private static List<List<BadRecord>> splitIntoPhases(List<BadRecord> records) {
        int first = records.size() / 5;
        int second = first + records.size() * 3 / 5;
        return List.of(records.subList(0, first), records.subList(first, second), records.subList(second, records.size()));
    }

    private static void assertCopyOf(ConsumerRecord<byte[], byte[]> copy, BadRecord original) {
        if (copy.headers().lastHeader(DeadLetterHeaders.TRUNCATED) == null) {
            assertThat(copy.key()).as("key of %s", original).isEqualTo(original.key());
            assertThat(copy.value()).as("value of %s", original).isEqualTo(original.value());
            return;
        }
        // Only a copy that could not fit one Kafka record is cut, and it keeps the start of the original.
        assertThat(original.size()).as("truncated %s", original).isGreaterThan(900_000);
        assertThat(original.value()).startsWith(copy.value());
        assertThat(copy.value().length).isLessThan(original.value().length);
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(Infrastructure infra, String topic) {
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, infra.kafkaBootstrapServers(),
                ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 8 * BadRecords.KAFKA_RECORD_LIMIT),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            await().atMost(WITHIN).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                return consumer.position(partition) >= end;
            });
            return records;
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Where a record was stored. */
    record Source(String topic, int partition, long offset) {
    }

    /** A valid event as it goes on the wire. */
    record ValidEvent(Target target, String key, String json) {
    }

    /** Sends valid events and bad records mixed, keeping each list's own order, and remembers where bad ones went. */
    private static final class Sender {

        private final KafkaProducer<byte[], byte[]> producer;
        private final Topics topics;
        private final Map<BadRecord, Future<RecordMetadata>> bad = new LinkedHashMap<>();

        Sender(KafkaProducer<byte[], byte[]> producer, Topics topics) {
            this.producer = producer;
            this.topics = topics;
        }

        void interleave(List<ValidEvent> valid, List<BadRecord> badRecords, Random random) {
            int v = 0;
            int b = 0;
            while (v < valid.size() || b < badRecords.size()) {
                boolean nextIsValid = b == badRecords.size()
                        || v < valid.size() && random.nextInt(valid.size() - v + badRecords.size() - b) < valid.size() - v;
                if (nextIsValid) {
                    ValidEvent event = valid.get(v++);
                    producer.send(new ProducerRecord<>(event.target().topic(topics), bytes(event.key()), bytes(event.json())));
                } else {
                    BadRecord record = badRecords.get(b++);
                    bad.put(record, producer.send(new ProducerRecord<>(record.target().topic(topics), record.key(), record.value())));
                }
            }
            producer.flush();
        }

        Map<Source, BadRecord> badRecordsBySource() throws Exception {
            Map<Source, BadRecord> bySource = new HashMap<>();
            for (var sent : bad.entrySet()) {
                RecordMetadata stored = sent.getValue().get();
                bySource.put(new Source(stored.topic(), stored.partition(), stored.offset()), sent.getKey());
            }
            return bySource;
        }

        private static byte[] bytes(String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
    }

    /**
     * Valid traffic simple enough to know its outcome exactly: follows first (awaited), then publishes, deletes, reads
     * and read-alls in any order, then unfollows. A blog is unread for a user when the user follows its author, did
     * not unfollow, and the blog was neither deleted, read by the user, nor covered by the user's read-all of the
     * author. The scripts make every other order of the same events end in the same state.
     */
    private static final class ValidTraffic {

        private final Random random;
        private final Map<Long, Set<Long>> followers = new TreeMap<>();
        private final Map<Long, Long> authorOfBlog = new HashMap<>();
        private final Map<Long, Instant> publishedAt = new HashMap<>();
        private final Set<Long> deleted = new HashSet<>();
        private final Set<List<Long>> readBlogs = new HashSet<>();
        private final Map<List<Long>, Instant> readAllUpTo = new HashMap<>();
        private final Set<List<Long>> unfollowed = new HashSet<>();
        private int count;

        ValidTraffic(Random random) {
            this.random = random;
        }

        List<Long> users() {
            return IntStream.range(0, USERS).mapToObj(i -> FIRST_USER + i).toList();
        }

        /** Authors 1 and 2 get 30 followers each (big-V); the others 5 to 15. */
        List<ValidEvent> follows() {
            List<ValidEvent> events = new ArrayList<>();
            for (long author : AUTHORS) {
                List<Long> users = new ArrayList<>(users());
                Collections.shuffle(users, random);
                int followerCount = author <= 2 ? BIG_V_THRESHOLD + 10 : 5 + random.nextInt(11);
                for (long user : users.subList(0, followerCount)) {
                    followers.computeIfAbsent(author, a -> new TreeSet<>()).add(user);
                    events.add(event(Target.FOLLOW_EVENTS, author, """
                            {"type":"Followed","eventId":"f-%d-%d","followerId":%d,"authorId":%d,"at":"%s"}"""
                            .formatted(user, author, user, author, EPOCH)));
                }
            }
            return events;
        }

        List<ValidEvent> publishesDeletesAndReads() {
            List<ValidEvent> events = new ArrayList<>();
            List<Long> blogs = new ArrayList<>();
            for (long author : AUTHORS) {
                for (int i = 1; i <= BLOGS_PER_AUTHOR; i++) {
                    long blog = author * 1_000 + i;
                    Instant at = EPOCH.plusSeconds(blog);
                    blogs.add(blog);
                    authorOfBlog.put(blog, author);
                    publishedAt.put(blog, at);
                    events.add(event(Target.BLOG_EVENTS, author, """
                            {"type":"BlogPublished","eventId":"p-%d","blogId":%d,"authorId":%d,"publishedAt":"%s"}"""
                            .formatted(blog, blog, author, at)));
                }
            }
            for (int i = 0; i < blogs.size() / 6; i++) {
                long blog = blogs.get(random.nextInt(blogs.size()));
                deleted.add(blog);
                events.add(event(Target.BLOG_EVENTS, authorOfBlog.get(blog), """
                        {"type":"BlogDeleted","eventId":"d-%d-%d","blogId":%d,"authorId":%d,"deletedAt":"%s"}"""
                        .formatted(blog, i, blog, authorOfBlog.get(blog), EPOCH.plusSeconds(100_000))));
            }
            for (int i = 0; i < 300; i++) {
                long user = FIRST_USER + random.nextInt(USERS);
                long blog = blogs.get(random.nextInt(blogs.size()));
                readBlogs.add(List.of(user, blog));
                events.add(event(Target.READ_EVENTS, user, """
                        {"type":"BlogRead","eventId":"r-%d","userId":%d,"blogId":%d,"authorId":%d,"readAt":"%s"}"""
                        .formatted(i, user, blog, authorOfBlog.get(blog), EPOCH.plusSeconds(200_000))));
            }
            for (int i = 0; i < 40; i++) {
                long user = FIRST_USER + random.nextInt(USERS);
                long blog = blogs.get(random.nextInt(blogs.size()));
                long author = authorOfBlog.get(blog);
                readAllUpTo.merge(List.of(user, author), publishedAt.get(blog), (a, b) -> a.isAfter(b) ? a : b);
                events.add(event(Target.READ_EVENTS, user, """
                        {"type":"AuthorReadAll","eventId":"ra-%d","userId":%d,"authorId":%d,"readAt":"%s"}"""
                        .formatted(i, user, author, publishedAt.get(blog))));
            }
            // Publishes stay in order per author only through Kafka's partition order; everything else may race.
            Collections.shuffle(events, random);
            return events;
        }

        List<ValidEvent> unfollows() {
            List<ValidEvent> events = new ArrayList<>();
            for (long author : AUTHORS) {
                List<Long> current = new ArrayList<>(followers.get(author));
                for (int i = 0; i < 3; i++) {
                    long user = current.get(random.nextInt(current.size()));
                    if (!unfollowed.add(List.of(user, author))) continue;
                    events.add(event(Target.FOLLOW_EVENTS, author, """
                            {"type":"Unfollowed","eventId":"u-%d-%d","followerId":%d,"authorId":%d,"at":"%s"}"""
                            .formatted(user, author, user, author, EPOCH.plusSeconds(300_000))));
                }
            }
            return events;
        }

        /** user → author → unread blog ids, only non-empty sets. */
        Map<Long, Map<Long, Set<Long>>> expected() {
            Map<Long, Map<Long, Set<Long>>> unread = new TreeMap<>();
            authorOfBlog.forEach((blog, author) -> {
                for (long user : followers.get(author)) {
                    Instant readAll = readAllUpTo.get(List.of(user, author));
                    boolean read = readBlogs.contains(List.of(user, blog))
                            || readAll != null && !publishedAt.get(blog).isAfter(readAll);
                    if (deleted.contains(blog) || read || unfollowed.contains(List.of(user, author))) continue;
                    unread.computeIfAbsent(user, u -> new TreeMap<>()).computeIfAbsent(author, a -> new TreeSet<>()).add(blog);
                }
            });
            return unread;
        }

        int count() {
            return count;
        }

        private ValidEvent event(Target target, long key, String json) {
            count++;
            return new ValidEvent(target, Long.toString(key), json);
        }
    }

    /** The unread sets and counts of the given users in Redis; fails when counts and sets disagree. */
    private record RedisState(RedisConnections redis, UnreadKeys keys) {

        Map<Long, Map<Long, Set<Long>>> read(List<Long> users, long[] authors) throws Exception {
            UnreadReader reader = new UnreadReader(redis.shared(), keys);
            Map<Long, Map<Long, Set<Long>>> unread = new TreeMap<>();
            for (long user : users) {
                UnreadCounts counts = reader.counts(user);
                long total = 0;
                for (long author : authors) {
                    Set<Long> blogs = reader.page(user, author, 1_000, null).items().stream()
                            .map(UnreadItem::blogId).collect(Collectors.toCollection(TreeSet::new));
                    assertThat(counts.byAuthor().getOrDefault(author, 0L))
                            .as("count of user %d, author %d", user, author).isEqualTo(blogs.size());
                    total += blogs.size();
                    if (!blogs.isEmpty()) unread.computeIfAbsent(user, u -> new TreeMap<>()).put(author, blogs);
                }
                assertThat(counts.total()).as("total of user %d", user).isEqualTo(total);
            }
            return unread;
        }
    }

    /** Records every state the processor's applications pass through, sampled every 20 ms. */
    private static final class StateWatch implements AutoCloseable {

        private final StreamProcessor processor;
        private final Set<String> seen = ConcurrentHashMap.newKeySet();
        private final AtomicBoolean watching = new AtomicBoolean(true);
        private Thread thread;

        StateWatch(StreamProcessor processor) {
            this.processor = processor;
        }

        void start() {
            thread = Thread.ofVirtual().name("state-watch").start(() -> {
                while (watching.get()) {
                    // "stream processor RUNNING, fan-out worker RUNNING"
                    Arrays.stream(processor.state().split(", "))
                            .forEach(app -> seen.add(app.substring(app.lastIndexOf(' ') + 1)));
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }

        Set<String> seen() {
            return Set.copyOf(seen);
        }

        @Override
        public void close() {
            watching.set(false);
            if (thread == null) return;
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
