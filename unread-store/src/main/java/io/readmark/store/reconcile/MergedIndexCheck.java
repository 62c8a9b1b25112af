package io.readmark.store.reconcile;

import io.readmark.store.unread.MergedMember;
import io.readmark.store.unread.UnreadKeys;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The merged index's part of a reconcile: comparing it entry by entry with the unread sets, finding the authors it
 * names, and building it again from the sets. Always in slices of {@value #SLICE} entries, one script each, pipelined:
 * one script over a heavy user's million entries would hold Redis for seconds, and each slice is atomic, so a live
 * processor causes no false drift.
 */
final class MergedIndexCheck {

    static final int SLICE = 250;
    private static final int AUTHOR_SLICE = 1_000;

    private final RedisClusterAsyncCommands<String, String> redis;
    private final UnreadKeys keys;

    MergedIndexCheck(RedisClusterAsyncCommands<String, String> redis, UnreadKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** One user's unread set of one author. */
    private record UserAuthor(long user, String author) {
    }

    /**
     * For each user, a {@link DriftKind#WRONG_MERGED} finding per author with entries missing from the index or there at
     * another time (users without such authors are absent).
     */
    Map<Long, List<Drift>> compareEntries(Map<Long, ? extends Collection<String>> authorsByUser) {
        Map<UserAuthor, Long> differing = new HashMap<>();
        sliced(ReconcileScript.CHECK_MERGED, authorsByUser, (set, reply) -> differing.merge(set, (Long) reply.getFirst(), Long::sum));
        Map<Long, List<Drift>> findings = new HashMap<>();
        differing.forEach((set, count) -> {
            if (count > 0) {
                findings.computeIfAbsent(set.user(), user -> new ArrayList<>())
                        .add(new Drift(set.user(), DriftKind.WRONG_MERGED, set.author(), Long.toString(count), "0"));
            }
        });
        return findings;
    }

    /** Copies every given set of each user into the user's merged index (which repair.lua dropped). */
    void rebuild(long user, Collection<String> authors) {
        sliced(ReconcileScript.REBUILD_MERGED, Map.of(user, authors), (set, reply) -> { });
    }

    /** The authors the user's merged index has entries of (positive ids only), as decimal ids. */
    Set<String> authorsNamed(long user) {
        Set<String> authors = new LinkedHashSet<>();
        String[] mergedKey = {keys.merged(user)};
        long size = 1;
        for (long first = 0; first < size; first += AUTHOR_SLICE) {
            List<Object> reply = ReconcileScript.MERGED_AUTHORS.call(redis, mergedKey, Long.toString(first),
                    Integer.toString(AUTHOR_SLICE)).join();
            size = (Long) reply.getFirst();
            reply.subList(1, reply.size()).forEach(hex -> authors.add(Long.toString(MergedMember.authorOfHex((String) hex))));
        }
        return authors;
    }

    /** A reply of a slice script for one set: {its result, ZCARD of the set}. */
    private interface SliceResult {
        void accept(UserAuthor set, List<Object> reply);
    }

    /**
     * Runs the script over every set in slices: the first slice of each set in one pipelined round, then the further
     * slices of the sets the replies showed to be longer, round by round.
     */
    private void sliced(ReconcileScript script, Map<Long, ? extends Collection<String>> authorsByUser, SliceResult result) {
        Map<UserAuthor, Long> next = new HashMap<>();
        authorsByUser.forEach((user, authors) -> authors.forEach(author -> next.put(new UserAuthor(user, author), 0L)));
        while (!next.isEmpty()) {
            Map<UserAuthor, CompletableFuture<List<Object>>> replies = new HashMap<>();
            next.forEach((set, first) -> replies.put(set, script.call(redis,
                    new String[]{keys.merged(set.user()), keys.unread(set.user(), Long.parseLong(set.author()))},
                    set.author(), Long.toString(first), Integer.toString(SLICE))));
            Map<UserAuthor, Long> later = new HashMap<>();
            replies.forEach((set, reply) -> {
                List<Object> values = reply.join();
                result.accept(set, values);
                long following = next.get(set) + SLICE;
                if (following < (Long) values.get(1)) later.put(set, following);
            });
            next.clear();
            next.putAll(later);
        }
    }
}
