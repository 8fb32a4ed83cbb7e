package io.ontul.server.cli;

import static java.util.Objects.requireNonNull;

/** A server's {@code HOST:PORT}, as given to {@code ontul sql --server}. */
public record ServerAddress(String host, int port)
{
    public ServerAddress
    {
        requireNonNull(host, "host is null");
    }

    public static ServerAddress parse(String text)
            throws UsageException
    {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new UsageException("--server needs HOST:PORT, not '" + text + "'");
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        }
        catch (NumberFormatException e) {
            throw new UsageException("--server needs HOST:PORT with a numeric port, not '" + text + "'");
        }
        if (port < 1 || port > 65535) {
            throw new UsageException("Port " + port + " is out of range");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new ServerAddress(host, port);
    }
}
