package io.readmark.processor;

import io.readmark.processor.commit.ThreadChanges;
import io.readmark.processor.deadletters.RejectedRecords;
import io.readmark.schemas.AllRead;
import io.readmark.schemas.AuthorReadAll;
import io.readmark.schemas.BlogRead;
import io.readmark.schemas.BlogsRead;
import io.readmark.schemas.EventTimeLimit;
import io.readmark.schemas.InboxSeen;
import io.readmark.schemas.NoticeRead;
import io.readmark.schemas.NoticesAllRead;
import io.readmark.schemas.ReadEvent;
import io.readmark.store.unread.UnreadChanges;

/**
 * Applies a user's reads: one blog or a list of them, everything of an author or of every author up to a moment; and
 * when the user last saw the inbox; one notice, or every notice up to a moment. A list is exactly one blog read per
 * item (at most {@value BlogsRead#MAX_BLOGS}), sent to Redis together at the flush after the event.
 */
final class ReadEventProcessor extends EventProcessor<ReadEvent> {

    ReadEventProcessor(ThreadChanges writers, EventTimeLimit eventTimes, RejectedRecords badRecords) {
        super(EventDecoder.of(ReadEvent.class, eventTimes, badRecords), writers);
    }

    @Override
    void apply(ReadEvent event, UnreadChanges writer) {
        switch (event) {
            case BlogRead read -> read(read, writer);
            case BlogsRead reads -> reads.reads().forEach(read -> read(read, writer));
            case AuthorReadAll readAll -> writer.readAll(readAll.userId(), readAll.authorId(), readAll.readAt().toEpochMilli());
            case AllRead allRead -> writer.allRead(allRead.userId(), allRead.readAt().toEpochMilli());
            case InboxSeen seen -> writer.inboxSeen(seen.userId(), seen.seenAt().toEpochMilli());
            case NoticeRead read -> writer.noticeRead(read.userId(), read.noticeId(), read.readAt().toEpochMilli());
            case NoticesAllRead allRead -> writer.noticesAllRead(allRead.userId(), allRead.readAt().toEpochMilli());
        }
    }

    private static void read(BlogRead read, UnreadChanges writer) {
        writer.remove(read.userId(), read.authorId(), read.blogId(), read.readAt().toEpochMilli());
    }
}
