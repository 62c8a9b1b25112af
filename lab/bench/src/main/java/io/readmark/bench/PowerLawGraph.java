package io.readmark.bench;

import java.util.SplittableRandom;
import java.util.function.IntConsumer;

/**
 * A synthetic follower graph with power-law author popularity, the same for the same seed and sizes. Users
 * {@code 1..users} each follow a log-normally spread number of distinct authors (mean {@code meanFollows}); the
 * r-th most popular author is picked with probability ∝ r^-exponent, so a few authors have most of the follows.
 * Authors are users {@code 1..authors}; nobody follows themself. Followers of an author are kept in ascending
 * id order, the order the stream processor fans out in.
 */
public final class PowerLawGraph {

    /** Spread of follows per user: log-normal with this sigma, so most follow tens and a few follow many. */
    private static final double FOLLOW_SIGMA = 0.6;

    private final int users;
    private final int authors;
    private final int[] authorStart;   // followers of author a: followers[authorStart[a] .. authorStart[a + 1])
    private final int[] followers;
    private final int[] userStart;     // authors user u follows: followed[userStart[u] .. userStart[u + 1])
    private final int[] followed;

    private PowerLawGraph(int users, int authors, int[] authorStart, int[] followers, int[] userStart, int[] followed) {
        this.users = users;
        this.authors = authors;
        this.authorStart = authorStart;
        this.followers = followers;
        this.userStart = userStart;
        this.followed = followed;
    }

    public static PowerLawGraph generate(int users, int authors, double meanFollows, double exponent, long seed) {
        if (users < 2 || authors < 2 || authors > users) {
            throw new IllegalArgumentException("need 2 <= authors <= users, got " + authors + " authors, " + users + " users");
        }
        SplittableRandom random = new SplittableRandom(seed);
        int[] authorOfRank = shuffledIds(authors, random);
        double[] cdf = zipfCdf(authors, exponent);
        int maxFollows = Math.max(1, authors / 2); // far below `authors`, so drawing distinct authors terminates fast

        int[] userStart = new int[users + 2];
        IntArray followed = new IntArray(users * (int) Math.ceil(meanFollows));
        int[] drawnBy = new int[authors + 1]; // drawnBy[a] == u: user u already follows a
        for (int u = 1; u <= users; u++) {
            userStart[u] = followed.size();
            double spread = Math.exp(FOLLOW_SIGMA * random.nextGaussian() - FOLLOW_SIGMA * FOLLOW_SIGMA / 2);
            int want = (int) Math.min(maxFollows, Math.max(1, Math.round(meanFollows * spread)));
            for (int got = 0, attempts = 0; got < want && attempts < 50 * want; attempts++) {
                int author = authorOfRank[rank(cdf, random.nextDouble())];
                if (author == u || drawnBy[author] == u) continue;
                drawnBy[author] = u;
                followed.add(author);
                got++;
            }
        }
        userStart[users + 1] = followed.size();
        int[] byUser = followed.toArray();

        // Invert into per-author follower lists; users are visited in ascending order, so each list comes out sorted.
        int[] authorStart = new int[authors + 2];
        for (int author : byUser) authorStart[author + 1]++;
        for (int a = 1; a <= authors + 1; a++) authorStart[a] += authorStart[a - 1];
        int[] fill = authorStart.clone();
        int[] followers = new int[byUser.length];
        for (int u = 1; u <= users; u++) {
            for (int i = userStart[u]; i < userStart[u + 1]; i++) followers[fill[byUser[i]]++] = u;
        }
        return new PowerLawGraph(users, authors, authorStart, followers, userStart, byUser);
    }

    public int users() {
        return users;
    }

    public int authors() {
        return authors;
    }

    /** Number of (follower, author) pairs. */
    public int edges() {
        return followers.length;
    }

    public int followerCount(int author) {
        return authorStart[author + 1] - authorStart[author];
    }

    /** The i-th follower of the author in ascending id order. */
    public int follower(int author, int i) {
        return followers[authorStart[author] + i];
    }

    public void forEachFollower(int author, IntConsumer action) {
        for (int i = authorStart[author]; i < authorStart[author + 1]; i++) action.accept(followers[i]);
    }

    public int followedCount(int user) {
        return userStart[user + 1] - userStart[user];
    }

    public void forEachFollowed(int user, IntConsumer action) {
        for (int i = userStart[user]; i < userStart[user + 1]; i++) action.accept(followed[i]);
    }

    /** The author with the most followers (the lowest id among equals). */
    public int mostFollowedAuthor() {
        int best = 1;
        for (int a = 2; a <= authors; a++) if (followerCount(a) > followerCount(best)) best = a;
        return best;
    }

    private static int[] shuffledIds(int n, SplittableRandom random) {
        int[] ids = new int[n];
        for (int i = 0; i < n; i++) ids[i] = i + 1;
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = ids[i];
            ids[i] = ids[j];
            ids[j] = swap;
        }
        return ids;
    }

    private static double[] zipfCdf(int n, double exponent) {
        double[] cdf = new double[n];
        double sum = 0;
        for (int r = 0; r < n; r++) cdf[r] = sum += Math.pow(r + 1, -exponent);
        for (int r = 0; r < n; r++) cdf[r] /= sum;
        return cdf;
    }

    private static int rank(double[] cdf, double u) {
        int low = 0, high = cdf.length - 1;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (cdf[mid] < u) low = mid + 1;
            else high = mid;
        }
        return low;
    }

    /** A growable int list, so a graph of millions of edges does not box every id. */
    private static final class IntArray {
        private int[] values;
        private int size;

        IntArray(int capacity) {
            values = new int[Math.max(16, capacity)];
        }

        void add(int value) {
            if (size == values.length) values = java.util.Arrays.copyOf(values, values.length * 2);
            values[size++] = value;
        }

        int size() {
            return size;
        }

        int[] toArray() {
            return java.util.Arrays.copyOf(values, size);
        }
    }
}
