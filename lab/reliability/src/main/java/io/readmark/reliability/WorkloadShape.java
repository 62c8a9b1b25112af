package io.readmark.reliability;

/**
 * The size of a workload. Users have ids {@code 1..users}; the first {@code normalAuthors} of them also publish.
 * Big-V authors are separate ids with {@code bigVFollowers} followers each, at least {@code bigVThreshold}, so their
 * posts take the chunked fan-out path; normal authors stay below {@code maxFollowersPerNormalAuthor}, itself below
 * the threshold, so theirs never do.
 *
 * @param followsPerUser  normal authors each user follows at the start
 * @param eventsPerSecond the rate a {@link WorkloadRunner} produces at
 */
public record WorkloadShape(int users, int normalAuthors, int bigVAuthors, int bigVFollowers, int bigVThreshold,
                            int followsPerUser, int maxFollowersPerNormalAuthor, int eventsPerSecond) {

    public WorkloadShape {
        if (normalAuthors < 1 || normalAuthors > users) throw new IllegalArgumentException("normal authors must be 1..users");
        if (bigVAuthors > 0 && (bigVFollowers < bigVThreshold || bigVFollowers > users)) {
            throw new IllegalArgumentException("big-V authors need threshold..users followers, had " + bigVFollowers);
        }
        if (maxFollowersPerNormalAuthor >= bigVThreshold) {
            throw new IllegalArgumentException("normal authors must stay below the big-V threshold " + bigVThreshold);
        }
        if (followsPerUser > normalAuthors || eventsPerSecond < 1) throw new IllegalArgumentException("bad workload shape");
    }

    /** A few hundred users, two dozen authors and two big-V authors: every path, small enough for a test of a minute. */
    public static WorkloadShape small(int eventsPerSecond) {
        return new WorkloadShape(300, 25, 2, 180, 150, 4, 100, eventsPerSecond);
    }
}
