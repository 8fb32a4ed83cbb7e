package io.ontul.sdk;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.flight.FlightRuntimeException;

/**
 * A statement or login the server refused, with its error code ({@code NOT_FOUND},
 * {@code PERMISSION_DENIED}, ... or Flight's status when the server sent none) and its message.
 */
public final class OntulClientException
        extends RuntimeException
{
    /** The trailer in which the server names its error code. */
    private static final String ERROR_CODE_HEADER = "x-ontul-error-code";

    private final String code;

    public OntulClientException(String code, String message)
    {
        this(code, message, null);
    }

    public OntulClientException(String code, String message, Throwable cause)
    {
        super(message, cause);
        this.code = requireNonNull(code, "code is null");
    }

    static OntulClientException of(FlightRuntimeException error)
    {
        String code = error.status().metadata() == null ? null : error.status().metadata().get(ERROR_CODE_HEADER);
        return new OntulClientException(code == null ? error.status().code().name() : code, error.status().description(), error);
    }

    /** The server's error code. */
    public String code()
    {
        return code;
    }
}
