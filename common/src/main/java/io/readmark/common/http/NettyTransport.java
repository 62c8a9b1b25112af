package io.readmark.common.http;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.flow.FlowControlHandler;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One listening socket on Netty: event loops parse HTTP/1.1 within {@link HttpLimits} and a virtual thread per
 * request runs the route. Connections beyond the server's or their client's limit are closed on accept; an event stream
 * counts towards its client's limit, not the server's (its route bounds streams). Per connection:
 * timeouts, header decoder with line and header bounds, body aggregation with its bound, flow control (one request at
 * a time), dispatch.
 */
final class NettyTransport implements AutoCloseable {

    /** Unsent bytes a connection may queue before it counts as not reading (event streams drop such clients). */
    private static final WriteBufferWaterMark WRITE_BUFFER = new WriteBufferWaterMark(32 * 1024, 256 * 1024);

    private final EventLoopGroup acceptor = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final EventLoopGroup workers;
    /** Whether {@link #workers} are this server's to shut down, or lent by the caller with other work on them. */
    private final boolean ownWorkers;
    /** Open connections, to close them when the worker loops are lent and so outlive this server. */
    private final ChannelGroup open = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final ExecutorService requests = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicInteger connections = new AtomicInteger();
    /** Open connections other than event streams: what {@link HttpLimits#maxConnections} bounds. */
    private final AtomicInteger requesting = new AtomicInteger();
    private final ClientConnections clients;
    private final Channel listener;
    private final Counter refusedConnections;
    private final Counter refusedOfClient;
    private final Counter silentConnections;
    private final Counter slowRequests;
    private final Counter oversizedBodies;

    /** @param lent the NIO event loops to serve connections on, or null for loops of this server's own */
    NettyTransport(String name, String host, int port, HttpLimits limits, Router router, MeterRegistry registry,
                   EventLoopGroup lent) throws InterruptedException {
        this.ownWorkers = lent == null;
        this.workers = ownWorkers ? new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory()) : lent;
        MeterRegistry meters = registry == null ? new SimpleMeterRegistry() : registry;
        Gauge.builder("http.server.connections", connections, AtomicInteger::get).tag("server", name)
                .description("HTTP connections open").register(meters);
        this.clients = new ClientConnections(limits.maxConnectionsPerClient());
        refusedConnections = refused(meters, name, HttpLimits.MAX_CONNECTIONS);
        refusedOfClient = refused(meters, name, HttpLimits.MAX_CONNECTIONS_PER_CLIENT);
        silentConnections = Counter.builder("http.server.connections.silent").tag("server", name)
                .description("connections closed without a byte within " + HttpLimits.FIRST_BYTE_TIMEOUT).register(meters);
        slowRequests = Counter.builder("http.server.requests.timed.out").tag("server", name)
                .description("requests not received within " + HttpLimits.REQUEST_TIMEOUT).register(meters);
        oversizedBodies = Counter.builder("http.server.requests.oversized").tag("server", name)
                .description("requests refused with 413 while their body arrived").register(meters);
        try {
            listener = new ServerBootstrap()
                    .group(acceptor, workers)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.AUTO_READ, false)
                    // The end of input reaches ReadAhead as an event, so a request read with it is still answered.
                    .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WRITE_BUFFER)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            accept(channel, limits, router);
                        }
                    })
                    .bind(new InetSocketAddress(host, port)).sync().channel();
        } catch (RuntimeException | InterruptedException e) {
            close();
            throw e;
        }
    }

    private static Counter refused(MeterRegistry meters, String server, String limit) {
        return Counter.builder("http.server.connections.refused").tags("server", server, "limit", limit)
                .description("connections closed at once because the limit was reached").register(meters);
    }

    private void accept(SocketChannel channel, HttpLimits limits, Router router) {
        InetAddress client = ClientConnections.clientOf(channel.remoteAddress());
        if (!clients.admit(client)) {
            refusedOfClient.increment();
            channel.close();
            return;
        }
        if (requesting.incrementAndGet() > limits.maxConnections()) {
            requesting.decrementAndGet();
            clients.release(client);
            refusedConnections.increment();
            channel.close();
            return;
        }
        connections.incrementAndGet();
        // An event stream leaves the requests' count: streams at their route's limit leave every request its place.
        AtomicBoolean counted = new AtomicBoolean(true);
        Runnable leaveRequests = () -> {
            if (counted.compareAndSet(true, false)) requesting.decrementAndGet();
        };
        channel.closeFuture().addListener(closed -> {
            connections.decrementAndGet();
            leaveRequests.run();
            clients.release(client);
        });
        open.add(channel);
        ReadAhead readAhead = new ReadAhead();
        RequestTimeouts timeouts = new RequestTimeouts(limits, slowRequests::increment, silentConnections::increment);
        HttpDecoderConfig decoder = new HttpDecoderConfig()
                .setMaxInitialLineLength(limits.maxRequestLineBytes())
                .setMaxHeaderSize(limits.maxHeaderBytes())
                .setMaxChunkSize(16 * 1024);
        channel.pipeline()
                .addLast("read-ahead", readAhead)
                .addLast("timeouts", timeouts)
                .addLast("http", new HttpServerCodec(decoder))
                .addLast("body", new BodyLimit(limits.maxBodyBytes(), timeouts, oversizedBodies::increment))
                .addLast("one-at-a-time", new FlowControlHandler())
                .addLast("dispatch", new RequestDispatcher(router, requests, limits, timeouts, readAhead, leaveRequests));
    }

    int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** Stops accepting, lets running requests finish and answer, then closes every connection. */
    @Override
    public void close() {
        if (listener != null) listener.close().syncUninterruptibly();
        acceptor.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        requests.close();
        if (ownWorkers) {
            workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        } else {
            open.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
    }
}
