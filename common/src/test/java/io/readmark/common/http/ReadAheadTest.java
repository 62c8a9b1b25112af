package io.readmark.common.http;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the stage lets later stages see and when it reads the socket. The later stage here plays the dispatcher: it
 * asks for bytes, and when told a request arrived it starts answering within that read, as a request does.
 */
class ReadAheadTest {

    private final ReadAhead readAhead = new ReadAhead();
    private final List<String> seen = new ArrayList<>();
    /** Buffers the stage allocated. */
    private final List<ByteBuf> allocated = new ArrayList<>();
    /** Reads that reached the socket. */
    private int socketReads;
    private int completionsSeen;
    /** The next bytes seen start an answer, as a complete request does. */
    private boolean answerNext;
    private EmbeddedChannel channel;

    @BeforeEach
    void setUp() {
        channel = new EmbeddedChannel();
        channel.config().setAutoRead(false);
        channel.config().setAllocator(new AbstractByteBufAllocator(false) {
            @Override
            protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
                ByteBuf buffer = Unpooled.buffer(initialCapacity, maxCapacity);
                allocated.add(buffer);
                return buffer;
            }

            @Override
            protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
                return newHeapBuffer(initialCapacity, maxCapacity);
            }

            @Override
            public boolean isDirectBufferPooled() {
                return false;
            }
        });
        channel.pipeline().addLast(new ChannelOutboundHandlerAdapter() {
            @Override
            public void read(ChannelHandlerContext ctx) {
                socketReads++;
                ctx.read();
            }
        }, readAhead, new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf bytes = (ByteBuf) msg;
                seen.add(bytes.toString(StandardCharsets.US_ASCII));
                bytes.release();
                if (answerNext) {
                    answerNext = false;
                    readAhead.answering();
                }
            }

            @Override
            public void channelReadComplete(ChannelHandlerContext ctx) {
                completionsSeen++;
            }
        });
    }

    @AfterEach
    void tearDown() {
        channel.finishAndReleaseAll();
    }

    @Test
    void whileARequestIsAnsweredTheSocketIsReadAndWhatArrivesWaitsUntilAskedFor() {
        askForARequest();
        answerNext = true;
        arrive("first");
        int readsAfterFirst = socketReads;
        assertThat(readsAfterFirst).as("a read ahead asked of the socket during the answer").isEqualTo(2);

        arrive("second");
        assertThat(seen).as("read ahead, not yet seen").containsExactly("first");
        int completions = completionsSeen;

        askForARequest(); // the answer is out
        assertThat(seen).containsExactly("first", "second");
        assertThat(completionsSeen).as("seen as a read of its own").isEqualTo(completions + 1);
        assertThat(socketReads).as("served from what was read ahead").isEqualTo(readsAfterFirst);
    }

    @Test
    void nothingMoreIsReadWhileSomethingReadAheadIsHeld() {
        askForARequest();
        answerNext = true;
        arrive("first");
        arrive("second"); // read ahead and held
        int reads = socketReads;

        readAhead.answering(); // another request answered meanwhile (one held in a later stage)

        assertThat(socketReads).isEqualTo(reads);
    }

    @Test
    void anAnswerGivenWithinTheReadThatAskedLeavesTheNextBytesAskedFor() {
        askForARequest();
        answerNext = true;
        channel.pipeline().fireChannelRead(bytes("first")); // the answer is written before this read completes
        askForARequest();
        channel.pipeline().fireChannelReadComplete();

        arrive("second");

        assertThat(seen).containsExactly("first", "second");
    }

    @Test
    void anEndOfInputReadAheadClosesTheConnectionOnlyWhenTheNextRequestIsAskedFor() {
        askForARequest();
        answerNext = true;
        arrive("first");

        channel.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
        assertThat(channel.isOpen()).as("open while the answer goes out").isTrue();

        askForARequest();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void anEndOfInputWhenAskedForClosesAtOnce() {
        askForARequest();

        channel.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);

        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void whatIsHeldIsReleasedWhenTheConnectionCloses() {
        askForARequest();
        answerNext = true;
        arrive("first");
        ByteBuf readAhead = bytes("second");
        channel.writeInbound(readAhead);
        assertThat(seen).containsExactly("first");

        channel.close();

        assertThat(readAhead.refCnt()).as("the read's buffer, released once copied").isZero();
        assertThat(allocated).as("the copy held").isNotEmpty().allSatisfy(copy -> assertThat(copy.refCnt()).isZero());
    }

    private void askForARequest() {
        channel.read();
    }

    private void arrive(String text) {
        channel.writeInbound(bytes(text));
    }

    private static ByteBuf bytes(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
    }
}
