package io.readmark.bench;

import io.readmark.processor.ProcessorConfig;
import io.readmark.store.unread.UnreadChanges;

import java.util.ArrayList;
import java.util.List;

/**
 * How the product splits a post's followers into delivery scripts on a standalone Redis, so that the bench counts the
 * scripts it will see and the ceiling sends the same ones: groups of {@value UnreadChanges#MAX_USERS_PER_CALL} on the
 * inline path; on the big-V path (an author with at least {@code bigvThreshold} followers) chunks of
 * {@code chunkSize}, bursts of {@code burst} within a chunk, and at most {@value UnreadChanges#MAX_USERS_PER_CALL}
 * followers a script within a burst.
 */
record ScriptGroups(long bigvThreshold, int chunkSize, int burst) {

    /** A script's followers: positions {@code from} (inclusive) to {@code to} (exclusive) among a post's. */
    record Group(int from, int to) {
    }

    ScriptGroups {
        if (bigvThreshold <= 0 || chunkSize <= 0 || burst <= 0) {
            throw new IllegalArgumentException("threshold, chunk size and burst must be positive");
        }
    }

    /** As the processor this configuration starts groups them. */
    static ScriptGroups of(ProcessorConfig config) {
        return new ScriptGroups(config.fanout().policy().threshold(), config.fanout().chunkSize(), config.fanoutBurst());
    }

    /** The scripts of a post to {@code followers} followers, in order. */
    List<Group> of(int followers) {
        List<Group> groups = new ArrayList<>();
        if (followers < bigvThreshold) {
            split(0, followers, groups);
            return groups;
        }
        for (int chunk = 0; chunk < followers; chunk += chunkSize) {
            int chunkEnd = Math.min(followers, chunk + chunkSize);
            for (int from = chunk; from < chunkEnd; from += burst) split(from, Math.min(chunkEnd, from + burst), groups);
        }
        return groups;
    }

    /** How many scripts a post to {@code followers} followers takes. */
    long scripts(int followers) {
        return of(followers).size();
    }

    private static void split(int from, int to, List<Group> groups) {
        for (int start = from; start < to; start += UnreadChanges.MAX_USERS_PER_CALL) {
            groups.add(new Group(start, Math.min(to, start + UnreadChanges.MAX_USERS_PER_CALL)));
        }
    }
}
