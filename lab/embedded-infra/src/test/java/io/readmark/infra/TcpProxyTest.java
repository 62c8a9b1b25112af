package io.readmark.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy against a local echo server: it forwards, a stall holds bytes back until healed, a cut closes and refuses. */
class TcpProxyTest {

    private static final int READ_TIMEOUT_MILLIS = 5_000;
    /** Long enough for a byte to cross the loopback many times over; a stall must hold it back that long. */
    private static final int HELD_BACK_MILLIS = 300;

    private ServerSocket echo;
    private TcpProxy proxy;

    @BeforeEach
    void startEchoServerAndProxy() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::echoAll);
        proxy = TcpProxy.start(echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    @Test
    void shouldForwardBothWays() throws IOException {
        try (Socket client = connect()) {
            assertThat(roundTrip(client, "ping")).isEqualTo("ping");
        }
    }

    @Test
    void shouldHoldBytesBackWhileStalledAndDeliverThemOnceHealed() throws IOException {
        try (Socket client = connect()) {
            roundTrip(client, "a");
            proxy.stall();
            client.getOutputStream().write("b".getBytes(StandardCharsets.UTF_8));
            client.setSoTimeout(HELD_BACK_MILLIS);
            assertThatThrownBy(() -> client.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);

            proxy.heal();
            client.setSoTimeout(READ_TIMEOUT_MILLIS);
            assertThat(client.getInputStream().read()).isEqualTo('b');
        }
    }

    @Test
    void shouldCloseConnectionsAndRefuseNewOnesWhileCutThenAcceptAgain() throws IOException {
        try (Socket client = connect()) {
            roundTrip(client, "a");
            proxy.cut();
            assertThat(client.getInputStream().read()).as("end of stream on a cut connection").isEqualTo(-1);
            assertThatThrownBy(this::connect).isInstanceOf(IOException.class);
        }
        int port = proxy.port();
        proxy.heal();
        assertThat(proxy.port()).as("the port after a cut").isEqualTo(port);
        try (Socket client = connect()) {
            assertThat(roundTrip(client, "again")).isEqualTo("again");
        }
    }

    @Test
    void shouldCloseAConnectionAcceptedJustBeforeACut() throws IOException {
        // The cut lands after the proxy accepted the connection but before it registered it
        proxy.afterAccept(proxy::cut);
        try (Socket client = connect()) {
            assertThat(echoOrEnd(client)).as("end of stream on a connection accepted before the cut").isEqualTo(-1);
        }
    }

    /** Sends a byte and reads the echo: the byte, or -1 once the proxy closed or reset the connection. */
    private static int echoOrEnd(Socket client) throws SocketTimeoutException {
        try {
            client.getOutputStream().write('a');
            return client.getInputStream().read();
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            return -1;
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), proxy.port()), READ_TIMEOUT_MILLIS);
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        return socket;
    }

    private static String roundTrip(Socket client, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        client.getOutputStream().write(bytes);
        return new String(client.getInputStream().readNBytes(bytes.length), StandardCharsets.UTF_8);
    }

    private void echoAll() {
        while (!echo.isClosed()) {
            try {
                Socket connection = echo.accept();
                Thread.ofVirtual().start(() -> {
                    try (connection; InputStream in = connection.getInputStream(); OutputStream out = connection.getOutputStream()) {
                        in.transferTo(out);
                    } catch (IOException e) {
                        // The proxy closed it.
                    }
                });
            } catch (IOException e) {
                return;
            }
        }
    }
}
