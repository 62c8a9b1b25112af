package io.readmark.infra;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.common.Uuid;

/**
 * One node of a local KRaft cluster of {@code nodes} combined brokers and controllers, as
 * {@link EmbeddedKafka#startClusterNode} starts it: its id and ports, the static voters and the id every node shares.
 * A node keeps its ports across restarts, because the others know it by them.
 */
public record KafkaClusterNode(int nodeId, int nodes, int brokerPort, int controllerPort, String voters, String clusterId) {

    /** The nodes of a new cluster of {@code nodes} on ports free on 127.0.0.1 now, with ids 1 to {@code nodes}. */
    public static List<KafkaClusterNode> plan(int nodes) {
        if (nodes < 1) throw new IllegalArgumentException("a cluster needs a node, asked for " + nodes);
        List<Integer> ports = LocalPorts.freePorts(2 * nodes);
        String voters = IntStream.rangeClosed(1, nodes)
                .mapToObj(id -> id + "@127.0.0.1:" + ports.get(nodes + id - 1)).collect(Collectors.joining(","));
        String clusterId = Uuid.randomUuid().toString();
        List<KafkaClusterNode> plan = new ArrayList<>();
        for (int id = 1; id <= nodes; id++) {
            plan.add(new KafkaClusterNode(id, nodes, ports.get(id - 1), ports.get(nodes + id - 1), voters, clusterId));
        }
        return plan;
    }

    /** The node as program arguments, read back by {@link #fromArguments}. */
    public List<String> arguments() {
        return List.of(Integer.toString(nodeId), Integer.toString(nodes), Integer.toString(brokerPort),
                Integer.toString(controllerPort), voters, clusterId);
    }

    public static KafkaClusterNode fromArguments(List<String> arguments) {
        return new KafkaClusterNode(Integer.parseInt(arguments.get(0)), Integer.parseInt(arguments.get(1)),
                Integer.parseInt(arguments.get(2)), Integer.parseInt(arguments.get(3)), arguments.get(4), arguments.get(5));
    }
}
