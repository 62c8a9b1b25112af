package io.readmark.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import com.fasterxml.jackson.databind.JsonNode;
import io.readmark.schemas.Json;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The packaged logback.xml: {@code READMARK_LOG_FORMAT} picks text or JSON lines, key-value pairs kept in both. */
class LogFormatTest {

    @Test
    void shouldWriteOneParseableJsonObjectPerLineWhenAskedForJson() throws Exception {
        // When
        List<String> lines = logOneLine("json");

        // Then
        assertThat(lines).hasSize(1);
        JsonNode line = Json.MAPPER.readTree(lines.getFirst());
        assertThat(line.get("level").asText()).isEqualTo("INFO");
        assertThat(line.get("loggerName").asText()).isEqualTo("io.readmark.test");
        assertThat(line.get("formattedMessage").asText()).isEqualTo("fan-out started for 3 followers");
        assertThat(line.get("timestamp").isNumber()).isTrue();
        assertThat(line.get("kvpList").toString()).isEqualTo("[{\"job\":\"deliver-9\"},{\"author\":\"7\"}]");
    }

    @Test
    void shouldWriteTextWithTheKeyValuePairsAfterTheMessageByDefault() throws Exception {
        // When
        List<String> lines = logOneLine(null);

        // Then
        assertThat(lines).singleElement().asString()
                .matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  \\[.+] io.readmark.test - fan-out started for 3 followers "
                        + "job=\"deliver-9\" author=\"7\"");
    }

    @Test
    void shouldFallBackToTextForAFormatItDoesNotKnow() throws Exception {
        assertThat(logOneLine("xml")).singleElement().asString().contains(" - fan-out started for 3 followers job=");
    }

    /** Configures a fresh logback from the packaged file, as the variable would, and logs one line to stdout. */
    private static List<String> logOneLine(String format) throws Exception {
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter()); // what SLF4J's binding would give the default context
        if (format != null) context.putProperty("READMARK_LOG_FORMAT", format);
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            configurator.doConfigure(LogFormatTest.class.getResource("/logback.xml"));
            context.getLogger("io.readmark.test").atInfo().addKeyValue("job", "deliver-9").addKeyValue("author", 7)
                    .log("fan-out started for {} followers", 3);
        } finally {
            context.stop();
            System.setOut(stdout);
        }
        return captured.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
