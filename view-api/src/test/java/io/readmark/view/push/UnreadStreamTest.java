package io.readmark.view.push;

import io.readmark.view.routes.InboxCounts;

import io.readmark.common.http.EventSink;
import io.readmark.common.http.ServerSentEvent;
import io.readmark.store.notice.BroadcastUnread;
import io.readmark.store.unread.AuthorCounts;
import io.readmark.store.unread.UnreadCounts;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class UnreadStreamTest {

    private static final long USER = 42;

    /** A stream's connection whose loop runs nothing until the test says so. */
    private static final class QueuedSink implements EventSink {
        final List<Runnable> onLoop = new ArrayList<>();
        final List<ServerSentEvent> sent = new ArrayList<>();

        @Override
        public boolean send(ServerSentEvent event) {
            return sent.add(event);
        }

        @Override
        public boolean retry(Duration delay) {
            return true;
        }

        @Override
        public boolean comment(String text) {
            return true;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public boolean wasDropped() {
            return false;
        }

        @Override
        public void onClose(Runnable action) {
        }

        @Override
        public void close() {
        }

        @Override
        public Executor executor() {
            return onLoop::add;
        }
    }

    private static InboxCounts counts(long total) {
        return new InboxCounts(new UnreadCounts(USER, total, 0, AuthorCounts.NONE, 0, 0, total), BroadcastUnread.NONE);
    }

    @Test
    void shouldReadAndPushOnTheStreamsOwnLoopNotTheThreadThatHeardTheChange() {
        // Given an open stream whose reads are counted
        AtomicInteger reads = new AtomicInteger();
        UnreadStream stream = new UnreadStream(USER, user -> {
            reads.incrementAndGet();
            return CompletableFuture.completedFuture(counts(1));
        }, new UnreadStream.Owner() {
            @Override
            public void pushed() {
            }

            @Override
            public void ended(UnreadStream ended, UnreadStream.Ending ending) {
            }

            @Override
            public void schedule(Runnable task, long delayMillis) {
            }
        }, new UnreadStream.Audiences() {
            @Override
            public void follow(UnreadStream following) {
            }

            @Override
            public void stop() {
            }
        }, System::currentTimeMillis, new StreamLifetime(Long.MAX_VALUE, UnreadStream.Ending.MAX_AGE));
        QueuedSink sink = new QueuedSink();
        stream.open(sink, counts(0), Duration.ofSeconds(3));

        // When a change is heard (on the change feed's thread)
        stream.changed("7 delivered 1 2");

        // Then nothing is read there: the read waits for the stream's loop, and the push is made when it runs
        assertThat(reads).hasValue(0);
        assertThat(sink.onLoop).hasSize(1);
        sink.onLoop.removeFirst().run();
        assertThat(reads).hasValue(1);
        assertThat(sink.sent).hasSize(2);
        assertThat(sink.sent.getLast().data()).contains("\"total\":1");
    }
}
