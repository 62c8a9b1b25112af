package io.readmark.reliability;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The Kafka node leading a partition of an input topic (blog or read events, which and which partition chosen by the
 * run's randomness) SIGKILLed, as a crashed broker host, and started again with its data a while later. Another
 * replica must take the partition over, and the workload's producer and the processors carry on by themselves: no
 * processor may exit and no stream thread may fail. The fault ends once every partition of every topic has all nodes
 * in sync again, so that the next kill cannot take a partition below {@code min.insync.replicas}.
 */
public final class KafkaLeaderKill implements Fault {

    private static final Duration LEADER_MOVED = Duration.ofSeconds(30);
    private static final Duration BACK_IN_SYNC = Duration.ofSeconds(120);
    private static final Duration POLL = Duration.ofMillis(200);

    private final KafkaCluster kafka;
    private final Duration downtime;

    /** @param downtime how long the killed node stays down */
    public KafkaLeaderKill(KafkaCluster kafka, Duration downtime) {
        this.kafka = kafka;
        this.downtime = downtime;
    }

    @Override
    public String name() {
        return "kafka-leader-kill";
    }

    @Override
    public synchronized void inject(Harness harness, Random random) {
        Pipeline pipeline = harness.pipeline();
        List<Map.Entry<String, Integer>> inputs = List.of(
                Map.entry(pipeline.topics().blogEvents().name(), pipeline.partitions()),
                Map.entry(pipeline.topics().readEvents().name(), pipeline.readPartitions()));
        Map.Entry<String, Integer> input = inputs.get(random.nextInt(inputs.size()));
        String topic = input.getKey();
        int partition = random.nextInt(input.getValue());
        // A follower out of sync would leave the partition below min.insync.replicas, or leaderless, once its leader dies.
        kafka.awaitFullyInSync(BACK_IN_SYNC);
        int leader = kafka.leaderOf(topic, partition);
        if (leader == -1) throw new IllegalStateException(topic + "-" + partition + " has no leader before the kill");

        ProcessorsUnharmed processors = ProcessorsUnharmed.before(harness);
        RestartableKafka node = kafka.node(leader);
        node.kill();
        try {
            Poll.until(() -> ledByAnother(topic, partition, leader), LEADER_MOVED, POLL,
                    () -> topic + "-" + partition + " not led by another node after node " + leader + " was killed");
            Poll.pause(downtime);
        } finally {
            node.start();
        }
        kafka.awaitFullyInSync(BACK_IN_SYNC);
        processors.require(name() + " of node " + leader);
    }

    /** Whether a node other than {@code killed} leads the partition; false also while the cluster cannot say. */
    private boolean ledByAnother(String topic, int partition, int killed) {
        try {
            int now = kafka.leaderOf(topic, partition);
            return now != -1 && now != killed;
        } catch (IllegalStateException e) {
            if (Thread.currentThread().isInterrupted()) throw e;
            return false;
        }
    }
}
