package io.readmark.reliability;

/**
 * The soak's open unread streams at the end: how many users were watched, how many counts were pushed to them and
 * how many streams were opened (reconnections included), and how many users' last push differed from the final state.
 */
public record PushCheck(int users, long pushes, long streamsOpened, int differing) {

    public boolean exact() {
        return differing == 0;
    }
}
