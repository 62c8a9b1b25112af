package io.readmark.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.readmark.schemas.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a bench mode other than the main one leaves its report: {@code <name>-latest.txt} and {@code .json}, and
 * copies stamped with the start time, beside (never over) the bench's own report.
 */
final class ReportFiles {

    private ReportFiles() {
    }

    /** Writes the table and the JSON of {@code report}; returns the files written. */
    static List<Path> write(Path directory, String name, Instant startedAt, String table, Object report) throws IOException {
        Files.createDirectories(directory);
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(startedAt);
        ObjectMapper pretty = Json.MAPPER.copy().enable(SerializationFeature.INDENT_OUTPUT);
        byte[] json = pretty.writeValueAsBytes(report);
        byte[] text = table.getBytes(StandardCharsets.UTF_8);
        List<Path> written = new ArrayList<>();
        for (String file : List.of(name + "-latest", name + "-" + stamp)) {
            written.add(Files.write(directory.resolve(file + ".txt"), text));
            written.add(Files.write(directory.resolve(file + ".json"), json));
        }
        return written;
    }
}
