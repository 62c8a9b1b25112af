package io.readmark.common.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SettingsTest {

    @Test
    void shouldPreferOverridesThenEnvironmentThenFileThenDefault(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("readmark.properties");
        Files.writeString(file, "A=file\nB=file\nC=file\n");
        Settings settings = Settings.of(Map.of("A", "flag"), Map.of("A", "env", "B", "env", Settings.CONFIG_FILE_VARIABLE, file.toString()));

        assertThat(settings.string("A", "default")).isEqualTo("flag");
        assertThat(settings.string("B", "default")).isEqualTo("env");
        assertThat(settings.string("C", "default")).isEqualTo("file");
        assertThat(settings.string("D", "default")).isEqualTo("default");
        Settings local = settings.withDefaults(Map.of("C", "mode", "D", "mode"));
        assertThat(local.string("C", "default")).as("the file beats mode defaults").isEqualTo("file");
        assertThat(local.string("D", "default")).as("mode defaults beat code defaults").isEqualTo("mode");
    }

    @Test
    void shouldParseTypedValues() {
        Settings settings = Settings.of(Map.of(), Map.of("N", "42", "B", "yes", "D", "PT2S", "MS", "1500", "BLANK", "  "));
        assertThat(settings.integer("N", 0)).isEqualTo(42);
        assertThat(settings.bool("B", false)).isTrue();
        assertThat(settings.duration("D", Duration.ZERO)).isEqualTo(Duration.ofSeconds(2));
        assertThat(settings.duration("MS", Duration.ZERO)).isEqualTo(Duration.ofMillis(1500));
        assertThat(settings.integer("BLANK", 7)).as("blank means unset").isEqualTo(7);
    }

    @Test
    void shouldNameTheSettingWhenAValueDoesNotParse() {
        Settings settings = Settings.of(Map.of(), Map.of("VIEW_API_PORT", "eighty", "FLAG", "maybe", "COUNT", "0"));
        assertThatThrownBy(() -> settings.integer("VIEW_API_PORT", 8081)).hasMessageContaining("VIEW_API_PORT").hasMessageContaining("eighty");
        assertThatThrownBy(() -> settings.bool("FLAG", false)).hasMessageContaining("FLAG");
        assertThatThrownBy(() -> settings.positiveInteger("COUNT", 5)).hasMessageContaining("COUNT");
    }

    @Test
    void shouldRememberEveryNameLookedUpIncludingThroughDerivedLookups() {
        Settings settings = Settings.of(Map.of(), Map.of("SET", "1"));
        Settings derived = settings.withOverrides(Map.of("FLAG", "x")).withDefaults(Map.of("MODE", "y"));

        settings.string("SET", "0");
        derived.integer("UNSET", 7);
        derived.find("FLAG");

        assertThat(settings.namesLookedUp()).containsExactlyInAnyOrder("SET", "UNSET", "FLAG");
        assertThat(derived.namesLookedUp()).isEqualTo(settings.namesLookedUp());
    }

    @Test
    void shouldFailClearlyWhenTheConfigFileIsMissing() {
        assertThatThrownBy(() -> Settings.of(Map.of(), Map.of(Settings.CONFIG_FILE_VARIABLE, "/nonexistent/x.properties")))
                .hasMessageContaining("READMARK_CONFIG").hasMessageContaining("/nonexistent/x.properties");
    }
}
