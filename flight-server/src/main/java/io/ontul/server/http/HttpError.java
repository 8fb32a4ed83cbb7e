package io.ontul.server.http;

import static java.util.Objects.requireNonNull;

/**
 * A request the HTTP server refuses before it reaches the engine (no credentials, a malformed
 * body): the status, and the code and message its JSON error body carries.
 */
public final class HttpError
        extends RuntimeException
{
    private final int status;
    private final String code;

    public HttpError(int status, String code, String message)
    {
        super(requireNonNull(message, "message is null"), null, false, false);
        this.status = status;
        this.code = requireNonNull(code, "code is null");
    }

    public static HttpError badRequest(String message)
    {
        return new HttpError(400, "INVALID_ARGUMENT", message);
    }

    public static HttpError notFound(String message)
    {
        return new HttpError(404, "NOT_FOUND", message);
    }

    public int status()
    {
        return status;
    }

    public String code()
    {
        return code;
    }
}
