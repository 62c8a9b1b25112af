package io.readmark.cli;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommandLineFlagsTest {

    @Test
    void shouldTurnEachFlagIntoTheSettingOfTheSameName() {
        assertThat(CommandLineFlags.parse(List.of("--view-api-port", "9001", "--readmark-redis-prefix=x", "--redis-url", "redis://h:1")))
                .isEqualTo(Map.of("VIEW_API_PORT", "9001", "READMARK_REDIS_PREFIX", "x", "REDIS_URL", "redis://h:1"));
        assertThat(CommandLineFlags.parse(List.of())).isEmpty();
    }

    @Test
    void shouldSetADeclaredSwitchWithoutConsumingTheNextFlag() {
        Map<String, String> switches = Map.of("quick", "BENCH_QUICK");

        assertThat(CommandLineFlags.parse(List.of("--quick", "--bench-users", "500"), switches))
                .isEqualTo(Map.of("BENCH_QUICK", "true", "BENCH_USERS", "500"));
        assertThat(CommandLineFlags.parse(List.of("--bench-users", "500", "--quick"), switches))
                .isEqualTo(Map.of("BENCH_QUICK", "true", "BENCH_USERS", "500"));
        assertThat(CommandLineFlags.parse(List.of("--quick=false"), switches)).isEqualTo(Map.of("BENCH_QUICK", "false"));
    }

    @Test
    void shouldRejectAFlagWithoutAValueAndAWordThatIsNoFlag() {
        assertThatThrownBy(() -> CommandLineFlags.parse(List.of("--quick")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("flag --quick needs a value");
        assertThatThrownBy(() -> CommandLineFlags.parse(List.of("--view-api-port", "--x", "1")))
                .hasMessage("flag --view-api-port needs a value");
        assertThatThrownBy(() -> CommandLineFlags.parse(List.of("--quick", "5"), Map.of("quick", "BENCH_QUICK")))
                .hasMessageContaining("unexpected argument '5'");
        assertThatThrownBy(() -> CommandLineFlags.parse(List.of("--"))).hasMessageContaining("unexpected argument '--'");
    }
}
