package io.readmark.infra;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway CA and a server certificate it signed for {@code 127.0.0.1} and {@code localhost}, as PEM files a
 * {@code redis-server} and a client can load. Made with the JDK's own {@code keytool}, so a fresh machine needs
 * nothing more; valid for two days, never trusted by anything but the test that made it.
 */
public final class TlsCertificates implements AutoCloseable {

    private static final String STORE_PASSWORD = "throwaway";

    private final Path dir;

    private TlsCertificates(Path dir) {
        this.dir = dir;
    }

    /** Makes a new CA and server certificate in a directory of their own. */
    public static TlsCertificates create() {
        Path dir = TempDirs.create("readmark-tls-");
        try {
            keytool(dir, "-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=readmark test CA",
                    "-ext", "bc:c", "-validity", "2", "-keystore", "ca.p12");
            keytool(dir, "-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-file", "ca.pem");
            keytool(dir, "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                    "-validity", "2", "-keystore", "server.p12");
            keytool(dir, "-certreq", "-alias", "server", "-keystore", "server.p12", "-file", "server.csr");
            keytool(dir, "-gencert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-infile", "server.csr",
                    "-outfile", "server.pem", "-ext", "san=ip:127.0.0.1,dns:localhost", "-validity", "2");
            writePrivateKey(dir.resolve("server.p12"), dir.resolve("server.key"));
            return new TlsCertificates(dir);
        } catch (RuntimeException e) {
            TempDirs.deleteRecursively(dir);
            throw e;
        }
    }

    /** The CA certificate (PEM): what a client trusts. */
    public Path caFile() {
        return dir.resolve("ca.pem");
    }

    /** The server's certificate (PEM). */
    public Path certFile() {
        return dir.resolve("server.pem");
    }

    /** The server's private key (PKCS#8 PEM). */
    public Path keyFile() {
        return dir.resolve("server.key");
    }

    @Override
    public void close() {
        TempDirs.deleteRecursively(dir);
    }

    private static void keytool(Path dir, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(args));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", STORE_PASSWORD, "-noprompt"));
        try {
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("keytool " + args[0] + " failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run keytool", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running keytool", e);
        }
    }

    /** keytool cannot export a private key; the key store API can. */
    private static void writePrivateKey(Path store, Path pem) {
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(in, STORE_PASSWORD.toCharArray());
            Key key = keys.getKey("server", STORE_PASSWORD.toCharArray());
            String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded());
            Files.writeString(pem, "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n");
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the server key", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("could not read the server key", e);
        }
    }
}
