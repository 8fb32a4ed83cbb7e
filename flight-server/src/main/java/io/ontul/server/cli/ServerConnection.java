package io.ontul.server.cli;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Where and as whom {@code ontul sql --server} connects.
 *
 * @param tls connect with TLS ({@code grpc+tls://})
 * @param trustedCertificate a PEM certificate to trust, such as the server's generated one;
 *        empty: the JVM's default trust store
 */
public record ServerConnection(ServerAddress address, String user, String password, boolean tls, Optional<Path> trustedCertificate)
{
    public ServerConnection
    {
        requireNonNull(trustedCertificate, "trustedCertificate is null");
        requireNonNull(address, "address is null");
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
    }
}
