package io.readmark.producer;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import io.readmark.common.auth.PublishRule;

import java.util.List;

/**
 * The answer to {@code POST /v1/events:batch}: how many events had each outcome, and one result per event in input
 * order. {@code null} fields are written, so every result of one status has the same shape.
 */
@JsonPropertyOrder({"accepted", "rejected", "forbidden", "unavailable", "results"})
record BatchResult(int accepted, int rejected, int forbidden, int unavailable, List<Item> results) {

    static BatchResult of(List<Item> results) {
        int accepted = 0;
        int rejected = 0;
        int forbidden = 0;
        int unavailable = 0;
        for (Item item : results) {
            switch (item) {
                case Accepted ignored -> accepted++;
                case Rejected ignored -> rejected++;
                case Forbidden ignored -> forbidden++;
                case Unavailable ignored -> unavailable++;
            }
        }
        return new BatchResult(accepted, rejected, forbidden, unavailable, List.copyOf(results));
    }

    sealed interface Item permits Accepted, Rejected, Forbidden, Unavailable {
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

    /**
     * Outside the token's scopes and not sent: {@code scope} would allow it, {@code field} made it necessary. Retry only
     * with a token that has that scope.
     */
    @JsonPropertyOrder({"index", "status", "eventId", "type", "scope", "field", "detail"})
    record Forbidden(int index, String eventId, String type, String scope, String field, String detail) implements Item {

        static Forbidden of(int index, String eventId, PublishRule.Refusal refusal) {
            return new Forbidden(index, eventId, refusal.eventType(), refusal.scope(), refusal.field(), refusal.detail());
        }

        @JsonProperty
        String status() {
            return "forbidden";
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
