package io.readmark.processor;

import io.readmark.processor.commit.ThreadChanges;
import io.readmark.processor.deadletters.RejectedRecords;
import io.readmark.schemas.AudienceJoined;
import io.readmark.schemas.AudienceLeft;
import io.readmark.schemas.EventTimeLimit;
import io.readmark.schemas.FanoutChunk;
import io.readmark.schemas.NoticeEvent;
import io.readmark.schemas.NoticePublished;
import io.readmark.schemas.NoticeSent;
import io.readmark.schemas.NoticeWithdrawn;
import io.readmark.schemas.Topics;
import io.readmark.store.unread.UnreadChanges;
import org.apache.kafka.streams.processor.api.Record;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Applies notice events. A broadcast is one write to its audience whatever the audience's size (read diffusion); a
 * membership one write to the member. A targeted notice is written into each recipient's inbox (write diffusion):
 * inline up to {@code inlineRecipients}, above that as chunks on the fan-out topic, applied by the rate-limited
 * worker like a big-V fan-out so that a mass send never holds up this task.
 */
final class NoticeEventProcessor extends EventProcessor<NoticeEvent> {

    private final int inlineRecipients;
    private final int chunkSize;
    private final String fanoutSink;

    NoticeEventProcessor(ThreadChanges writers, EventTimeLimit eventTimes, RejectedRecords badRecords, int inlineRecipients,
                         int chunkSize, String fanoutSink) {
        super(EventDecoder.of(NoticeEvent.class, eventTimes, badRecords), writers);
        this.inlineRecipients = inlineRecipients;
        this.chunkSize = chunkSize;
        this.fanoutSink = fanoutSink;
    }

    @Override
    void apply(NoticeEvent event, UnreadChanges writer) {
        switch (event) {
            case NoticePublished published -> writer.noticePublished(published.audience(), published.noticeId(),
                    published.publishedAt().toEpochMilli(), published.expiresAt() == null ? 0 : published.expiresAt().toEpochMilli());
            case NoticeWithdrawn withdrawn -> writer.noticeWithdrawn(withdrawn.audience(), withdrawn.noticeId(),
                    withdrawn.withdrawnAt().toEpochMilli());
            case AudienceJoined joined -> writer.audienceJoined(joined.userId(), joined.audience(), joined.at().toEpochMilli());
            case AudienceLeft left -> writer.audienceLeft(left.userId(), left.audience(), left.at().toEpochMilli());
            case NoticeSent sent -> send(sent, writer);
        }
    }

    private void send(NoticeSent sent, UnreadChanges writer) {
        long sentAt = sent.sentAt().toEpochMilli();
        List<Long> recipients = sent.recipientIds();
        if (recipients.size() <= inlineRecipients) {
            for (long recipient : recipients) writer.noticeSent(recipient, sent.noticeId(), sentAt);
            return;
        }
        // Chunks are sent before this record's offset commits; sent again after a crash, they change nothing.
        long now = context().currentSystemTimeMs();
        String jobId = "notice-" + sent.noticeId();
        for (int from = 0, chunk = 0; from < recipients.size(); from += chunkSize, chunk++) {
            List<Long> slice = recipients.subList(from, Math.min(recipients.size(), from + chunkSize));
            FanoutChunk value = new FanoutChunk(jobId, FanoutChunk.Kind.NOTICE, 0, sent.noticeId(), sentAt,
                    recipients.size(), now, slice);
            byte[] key = (jobId + "-" + chunk).getBytes(StandardCharsets.UTF_8);
            context().forward(new Record<>(key, Topics.CHUNK_SERDE.serialize(null, value), now), fanoutSink);
        }
    }
}
