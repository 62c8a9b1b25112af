package io.readmark.store.unread;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The users a call names to its {@link WriteGuard}: each once, and none for an audience's notice. */
class ScriptCallTest {

    private static final UnreadKeys KEYS = new UnreadKeys("rm");

    @Test
    void shouldNameEachUserOfACallOnce() {
        List<ScriptCall> calls = new ArrayList<>();
        new UnreadScriptCalls(KEYS, UnreadLimits.DEFAULTS, false).deliverToEach(List.of(5L, 6L, 7L), 1, 2, 3_000, calls::add);

        assertThat(calls).singleElement().extracting(ScriptCall::users).isEqualTo(new long[]{5, 6, 7});
        assertThat(new UnreadScriptCalls(KEYS, UnreadLimits.DEFAULTS, false).allRead(9, 1_000).users())
                .as("z, h, floors, audiences, live and changes of one user").containsExactly(9);
        assertThat(new ScriptCall(UnreadScript.DELIVER_MANY, new byte[][]{KEYS.zBytes(1), KEYS.zBytes(2), KEYS.hBytes(1)},
                new byte[0][]).users()).containsExactly(1, 2);
    }

    @Test
    void shouldNameNoUserForAnAudiencesNotice() {
        NoticeScriptCalls notices = new NoticeScriptCalls(KEYS, UnreadLimits.DEFAULTS.notices());

        assertThat(notices.noticePublished("everyone", 1, 1_000, 0).users()).isEmpty();
        assertThat(notices.noticeSent(4, 1, 1_000).users()).containsExactly(4);
    }
}
