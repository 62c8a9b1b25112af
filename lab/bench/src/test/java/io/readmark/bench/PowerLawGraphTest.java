package io.readmark.bench;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PowerLawGraphTest {

    private static final PowerLawGraph GRAPH = PowerLawGraph.generate(5_000, 500, 20, 0.9, 42);

    @Test
    void shouldGenerateTheSameGraphForTheSameSeedAndADifferentOneForAnother() {
        PowerLawGraph again = PowerLawGraph.generate(5_000, 500, 20, 0.9, 42);
        PowerLawGraph other = PowerLawGraph.generate(5_000, 500, 20, 0.9, 43);

        assertThat(followerCounts(again)).containsExactly(followerCounts(GRAPH));
        assertThat(followersOf(again, GRAPH.mostFollowedAuthor())).containsExactly(followersOf(GRAPH, GRAPH.mostFollowedAuthor()));
        assertThat(followerCounts(other)).isNotEqualTo(followerCounts(GRAPH));
    }

    @Test
    void shouldGiveEveryUserDistinctAuthorsOtherThanThemselvesWithTheRequestedMean() {
        for (int user = 1; user <= GRAPH.users(); user++) {
            Set<Integer> authors = new HashSet<>();
            int self = user;
            GRAPH.forEachFollowed(user, author -> {
                assertThat(author).isBetween(1, GRAPH.authors()).isNotEqualTo(self);
                assertThat(authors.add(author)).as("user %d follows author %d twice", self, author).isTrue();
            });
            assertThat(authors).hasSize(GRAPH.followedCount(user)).isNotEmpty();
        }
        assertThat((double) GRAPH.edges() / GRAPH.users()).isBetween(18.0, 22.0);
    }

    @Test
    void shouldListEachAuthorsFollowersInAscendingOrderConsistentWithWhatUsersFollow() {
        long fromAuthors = 0;
        for (int author = 1; author <= GRAPH.authors(); author++) {
            int[] followers = followersOf(GRAPH, author);
            int[] sorted = followers.clone();
            Arrays.sort(sorted);
            assertThat(followers).containsExactly(sorted).doesNotHaveDuplicates();
            fromAuthors += followers.length;
        }
        assertThat(fromAuthors).isEqualTo(GRAPH.edges());
        int author = GRAPH.mostFollowedAuthor();
        int someFollower = GRAPH.follower(author, 0);
        boolean[] follows = {false};
        GRAPH.forEachFollowed(someFollower, a -> follows[0] |= a == author);
        assertThat(follows[0]).isTrue();
    }

    @Test
    void shouldConcentrateFollowsOnFewAuthorsAsAPowerLaw() {
        int[] counts = followerCounts(GRAPH);
        Arrays.sort(counts);
        int top = counts[counts.length - 1];
        int median = counts[counts.length / 2];
        int tenth = counts[counts.length - 10];
        // Zipf 0.9: the top author has many times the median; rank 10 has ~10^-0.9 ≈ 1/8 of rank 1 (loosely).
        assertThat(top).isGreaterThan(10 * median);
        assertThat((double) tenth / top).isBetween(0.05, 0.4);
        // A steeper exponent concentrates more.
        PowerLawGraph steeper = PowerLawGraph.generate(5_000, 500, 20, 1.5, 42);
        assertThat(steeper.followerCount(steeper.mostFollowedAuthor())).isGreaterThan(top);
    }

    @Test
    void shouldRefuseMoreAuthorsThanUsers() {
        assertThatThrownBy(() -> PowerLawGraph.generate(10, 11, 2, 1, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    private static int[] followerCounts(PowerLawGraph graph) {
        return IntStream.rangeClosed(1, graph.authors()).map(graph::followerCount).toArray();
    }

    private static int[] followersOf(PowerLawGraph graph, int author) {
        return IntStream.range(0, graph.followerCount(author)).map(i -> graph.follower(author, i)).toArray();
    }
}
