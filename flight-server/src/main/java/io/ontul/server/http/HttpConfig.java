package io.ontul.server.http;

import io.ontul.engine.api.EngineConfig;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Where the HTTP server (REST API, metrics, Admin UI) listens: {@value #HTTP_PORT} on the Flight
 * SQL host ({@code ontul.flight.host}); 0 picks a free port, -1 turns the HTTP server off.
 */
public record HttpConfig(String host, int port)
{
    public static final String HTTP_PORT = "ontul.http.port";
    public static final int DEFAULT_PORT = 47480;
    /** The port value that turns the HTTP server off. */
    public static final int DISABLED = -1;

    public HttpConfig
    {
        if (port < DISABLED || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }

    public static int port(EngineConfig config)
    {
        String value = config.property(HTTP_PORT, String.valueOf(DEFAULT_PORT)).trim();
        try {
            int port = Integer.parseInt(value);
            if (port >= DISABLED && port <= 65535) {
                return port;
            }
        }
        catch (NumberFormatException e) {
            // reported below
        }
        throw new OntulException(ErrorCode.INVALID_ARGUMENT, HTTP_PORT + " must be a port number between 0 and 65535 (0: any free port, -1: no HTTP server), not '" + value + "'");
    }

    public boolean enabled()
    {
        return port != DISABLED;
    }
}
