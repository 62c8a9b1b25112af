package io.readmark.reliability;

import io.readmark.infra.EmbeddedKafka;
import io.readmark.infra.KafkaClusterNode;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The entry point of the broker {@link RestartableKafka} runs in its own process: a single-node KRaft Kafka on the
 * port and log dir given, or a node of a cluster when the node's arguments follow, until SIGTERM (a controlled
 * shutdown, logs flushed) or SIGKILL (nothing flushed: what the broker acknowledged is in the page cache, as after a
 * crashed process on a live host).
 */
public final class ChildKafkaMain {

    /** The line the broker prints once it accepts clients, followed by its port. */
    static final String READY = "readmark-kafka ready on port ";

    private ChildKafkaMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ParentWatchdog.watch("broker");
        EmbeddedKafka broker;
        try {
            broker = args.length > 2
                    ? EmbeddedKafka.startClusterNode(KafkaClusterNode.fromArguments(List.of(args).subList(2, args.length)),
                            Path.of(args[1]))
                    : EmbeddedKafka.start(Integer.parseInt(args[0]), Path.of(args[1]));
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "broker-shutdown"));
        System.out.println(READY + broker.port());
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
