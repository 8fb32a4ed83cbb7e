package io.ontul.spi;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * The one exception type users see. The message names the object and, where possible, the fix;
 * SQL errors start with {@code line L:C: }. INTERNAL errors say that they are a bug.
 */
public class OntulException
        extends RuntimeException
{
    private final ErrorCode code;
    private volatile String queryId;

    public OntulException(ErrorCode code, String message)
    {
        this(code, message, null);
    }

    public OntulException(ErrorCode code, String message, Throwable cause)
    {
        super(requireNonNull(message, "message is null"), cause);
        this.code = requireNonNull(code, "code is null");
    }

    public static OntulException userError(ErrorCode code, String format, Object... args)
    {
        return new OntulException(code, String.format(format, args));
    }

    public static OntulException internal(String message, Throwable cause)
    {
        return new OntulException(ErrorCode.INTERNAL_ERROR, "Internal error (this is a bug in Ontul): " + message, cause);
    }

    public ErrorCode code()
    {
        return code;
    }

    public ErrorCategory category()
    {
        return code.category();
    }

    /** The query this error ended, once the engine recorded it; clients see it beside the message. */
    public Optional<String> queryId()
    {
        return Optional.ofNullable(queryId);
    }

    /** Records the query that failed with this error (the first one recorded stays); returns this. */
    public OntulException withQueryId(String queryId)
    {
        if (this.queryId == null) {
            this.queryId = requireNonNull(queryId, "queryId is null");
        }
        return this;
    }
}
