package io.readmark.infra;

import java.nio.file.Path;
import java.util.Map;

/**
 * A {@code redis-server} that speaks TLS only, with a certificate of a throwaway CA, and lets in only the documented
 * ACL users given ({@link DocumentedRedisUsers}); {@link #close()} stops it and deletes the certificates.
 */
public final class SecuredRedis implements AutoCloseable {

    private final TlsCertificates certificates;
    private final EmbeddedRedis server;

    private SecuredRedis(TlsCertificates certificates, EmbeddedRedis server) {
        this.certificates = certificates;
        this.server = server;
    }

    /** Starts one on a free port with these users (name → password) and the default user disabled. */
    public static SecuredRedis start(Map<String, String> passwords) {
        TlsCertificates certificates = TlsCertificates.create();
        try {
            return new SecuredRedis(certificates, EmbeddedRedis.startTls(certificates, DocumentedRedisUsers.serverArgs(passwords)));
        } catch (RuntimeException e) {
            certificates.close();
            throw e;
        }
    }

    /** {@code rediss://127.0.0.1:PORT}, without credentials. */
    public String url() {
        return server.url();
    }

    /** The CA certificate (PEM) a client must trust. */
    public Path caFile() {
        return certificates.caFile();
    }

    @Override
    public void close() {
        server.close();
        certificates.close();
    }
}
