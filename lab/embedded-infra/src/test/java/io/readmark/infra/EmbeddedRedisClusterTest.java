package io.readmark.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Slot split, slot assignment and RESP framing of the cluster setup, without starting any process. */
class EmbeddedRedisClusterTest {

    @Test
    void splitsAllSlotsIntoContiguousRangesOfNearlyEqualSize() {
        // Given three masters, When the slots are split, Then they are redis-cli's usual three ranges
        assertThat(EmbeddedRedisCluster.slotRanges(3)).containsExactly(
                new EmbeddedRedisCluster.SlotRange(0, 5460),
                new EmbeddedRedisCluster.SlotRange(5461, 10922),
                new EmbeddedRedisCluster.SlotRange(10923, 16383));
        // And for any count, the ranges cover every slot exactly once
        for (int masters = 1; masters <= 7; masters++) {
            List<EmbeddedRedisCluster.SlotRange> ranges = EmbeddedRedisCluster.slotRanges(masters);
            assertThat(ranges.getFirst().first()).isZero();
            assertThat(ranges.getLast().last()).isEqualTo(EmbeddedRedisCluster.SLOTS - 1);
            for (int i = 1; i < ranges.size(); i++) {
                assertThat(ranges.get(i).first()).isEqualTo(ranges.get(i - 1).last() + 1);
            }
        }
    }

    @Test
    void assignsARangeSlotBySlotAsRedis62Understands() {
        // Given a range, When it becomes an ADDSLOTS command, Then every slot of it is one argument, in order
        assertThat(EmbeddedRedisCluster.addSlots(new EmbeddedRedisCluster.SlotRange(5461, 5464)))
                .containsExactly("CLUSTER", "ADDSLOTS", "5461", "5462", "5463", "5464");
        assertThat(EmbeddedRedisCluster.addSlots(new EmbeddedRedisCluster.SlotRange(0, 5460))).hasSize(2 + 5461);
        // And an error about it names the command, not five thousand slots
        assertThat(RespCommand.describe(EmbeddedRedisCluster.addSlots(new EmbeddedRedisCluster.SlotRange(0, 5460))))
                .isEqualTo("CLUSTER ADDSLOTS 0 1 ... (5463 arguments)");
        assertThat(RespCommand.describe("CLUSTER", "INFO")).isEqualTo("CLUSTER INFO");
    }

    @Test
    void encodesEveryArgumentAsABulkStringSoEmptyOnesSurvive() {
        assertThat(new String(RespCommand.encode("CLUSTER", "INFO", ""), StandardCharsets.UTF_8))
                .isEqualTo("*3\r\n$7\r\nCLUSTER\r\n$4\r\nINFO\r\n$0\r\n\r\n");
    }

    @Test
    void readsStatusIntegerAndBulkRepliesAndThrowsErrorReplies() throws IOException {
        assertThat(read("+OK\r\n")).isEqualTo("OK");
        assertThat(read(":42\r\n")).isEqualTo("42");
        assertThat(read("$12\r\ncluster\r\nok!\r\n")).isEqualTo("cluster\r\nok!");
        assertThat(read("$-1\r\n")).isNull();
        assertThatThrownBy(() -> read("-ERR Unknown subcommand\r\n"))
                .isInstanceOf(RespCommand.ErrorReply.class).hasMessageStartingWith("ERR Unknown subcommand");
        assertThatThrownBy(() -> read("$10\r\nshort\r\n")).isInstanceOf(IOException.class);
    }

    private static String read(String reply) throws IOException {
        return RespCommand.readReply(new ByteArrayInputStream(reply.getBytes(StandardCharsets.UTF_8)), "TEST");
    }
}
