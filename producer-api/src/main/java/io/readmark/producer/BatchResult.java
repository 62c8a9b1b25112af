package io.readmark.producer;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.List;

/**
 * The answer to {@code POST /v1/events:batch}: how many events had each outcome, and one result per event in input
 * order. {@code null} fields are written, so every result of one status has the same shape.
 */
@JsonPropertyOrder({"accepted", "rejected", "unavailable", "results"})
record BatchResult(int accepted, int rejected, int unavailable, List<Item> results) {

    static BatchResult of(List<Item> results) {
        int accepted = 0;
        int rejected = 0;
        int unavailable = 0;
        for (Item item : results) {
            switch (item) {
                case Accepted ignored -> accepted++;
                case Rejected ignored -> rejected++;
                case Unavailable ignored -> unavailable++;
            }
        }
        return new BatchResult(accepted, rejected, unavailable, List.copyOf(results));
    }

    sealed interface Item permits Accepted, Rejected, Unavailable {
    }

    /** Stored by Kafka at this position. */
    @JsonPropertyOrder({"index", "status", "eventId", "topic", "partition", "offset"})
    record Accepted(int index, String eventId, String topic, int partition, long offset) implements Item {
        @JsonProperty
        String status() {
            return "accepted";
        }
    }

    /** Breaks the contract and was not sent; {@code eventId} and {@code field} are null when unknown. Do not retry as is. */
    @JsonPropertyOrder({"index", "status", "eventId", "field", "detail"})
    record Rejected(int index, String eventId, String field, String detail) implements Item {
        @JsonProperty
        String status() {
            return "rejected";
        }
    }

    /** Kafka did not acknowledge it in time or refused it; retrying with the same eventId is safe. */
    @JsonPropertyOrder({"index", "status", "eventId", "detail"})
    record Unavailable(int index, String eventId, String detail) implements Item {
        @JsonProperty
        String status() {
            return "unavailable";
        }
    }
}
