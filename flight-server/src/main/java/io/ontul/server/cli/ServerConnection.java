package io.ontul.server.cli;

import static java.util.Objects.requireNonNull;

/** Where and as whom {@code ontul sql --server} connects. */
public record ServerConnection(ServerAddress address, String user, String password)
{
    public ServerConnection
    {
        requireNonNull(address, "address is null");
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
    }
}
