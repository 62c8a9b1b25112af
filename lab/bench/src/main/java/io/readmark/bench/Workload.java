package io.readmark.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The posts every write phase replays — ceiling, naive baseline and pipeline — in the same order over the same
 * graph, so their rates compare the same work. Every author publishes {@code postsPerAuthor} posts, round by round.
 */
public final class Workload {

    /** One publish; {@code publishedAtMillis} increases with the blog id. */
    public record Post(long blogId, int authorId, long publishedAtMillis) {
    }

    /** 2026-01-01T00:00:00Z: publish times are synthetic but realistic epoch milliseconds. */
    static final long EPOCH_2026 = 1_767_225_600_000L;
    private static final long FIRST_BLOG_ID = 1_000_000L;
    /** Blog ids of one repetition from those of the next: far more than any workload's posts. */
    private static final long REPETITION_STRIDE = 100_000_000L;

    private final PowerLawGraph graph;
    private final List<Post> posts;
    private final long deliveries;
    private final ScriptGroups groups;

    private Workload(PowerLawGraph graph, List<Post> posts, long deliveries, ScriptGroups groups) {
        this.graph = graph;
        this.posts = posts;
        this.deliveries = deliveries;
        this.groups = groups;
    }

    /** {@code groups}: how the product splits a post's followers into scripts. */
    public static Workload of(PowerLawGraph graph, int postsPerAuthor, ScriptGroups groups) {
        List<Post> posts = new ArrayList<>(graph.authors() * postsPerAuthor);
        long deliveries = 0;
        long blogId = FIRST_BLOG_ID;
        for (int round = 0; round < postsPerAuthor; round++) {
            for (int author = 1; author <= graph.authors(); author++, blogId++) {
                posts.add(new Post(blogId, author, EPOCH_2026 + blogId));
                deliveries += graph.followerCount(author);
            }
        }
        return new Workload(graph, List.copyOf(posts), deliveries, groups);
    }

    /**
     * The same posts again as new posts (blog ids and times shifted by {@code repetition} strides), so a write phase
     * can be repeated on the state the earlier repetitions left: each adds one more unread post per (user, author).
     */
    public Workload repetition(int repetition) {
        if (repetition == 0) return this;
        long shift = repetition * REPETITION_STRIDE;
        List<Post> shifted = posts.stream()
                .map(post -> new Post(post.blogId() + shift, post.authorId(), post.publishedAtMillis() + shift))
                .toList();
        return new Workload(graph, shifted, deliveries, groups);
    }

    /** The same posts but {@code authors}' (ids): for runs that mark those authors' posts read between them. */
    public Workload without(Set<Long> authors) {
        List<Post> kept = posts.stream().filter(post -> !authors.contains((long) post.authorId())).toList();
        long keptDeliveries = kept.stream().mapToLong(post -> graph.followerCount(post.authorId())).sum();
        return new Workload(graph, kept, keptDeliveries, groups);
    }

    /** When the newest of these posts was published. */
    public Instant newest() {
        return Instant.ofEpochMilli(posts.stream().mapToLong(Post::publishedAtMillis).max().orElse(EPOCH_2026));
    }

    public PowerLawGraph graph() {
        return graph;
    }

    public List<Post> posts() {
        return posts;
    }

    /** How the product splits a post's followers into delivery scripts. */
    public ScriptGroups groups() {
        return groups;
    }

    /** The delivery scripts the product sends for these posts (standalone Redis, where followers of any slots share one). */
    public long deliveryScripts() {
        long scripts = 0;
        for (Post post : posts) scripts += groups.scripts(graph.followerCount(post.authorId()));
        return scripts;
    }

    /** (post, follower) pairs: what must become visible in Redis. Nobody follows themself, so none is skipped. */
    public long deliveries() {
        return deliveries;
    }
}
