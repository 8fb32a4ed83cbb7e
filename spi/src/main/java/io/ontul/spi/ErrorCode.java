package io.ontul.spi;

/**
 * Specific error codes, each in one {@link ErrorCategory}. Codes are stable: clients may match on
 * them.
 */
public enum ErrorCode
{
    SYNTAX_ERROR(ErrorCategory.USER_ERROR),
    NOT_FOUND(ErrorCategory.USER_ERROR),
    ALREADY_EXISTS(ErrorCategory.USER_ERROR),
    TYPE_MISMATCH(ErrorCategory.USER_ERROR),
    INVALID_ARGUMENT(ErrorCategory.USER_ERROR),
    DIVISION_BY_ZERO(ErrorCategory.USER_ERROR),
    NUMERIC_OVERFLOW(ErrorCategory.USER_ERROR),
    INVALID_CAST(ErrorCategory.USER_ERROR),
    NOT_SUPPORTED(ErrorCategory.USER_ERROR),
    QUERY_CANCELLED(ErrorCategory.USER_ERROR),
    /** The user may not run the statement (for example CREATE USER by a user who is not an administrator). */
    PERMISSION_DENIED(ErrorCategory.USER_ERROR),
    /** Another statement changed the table this one writes after it read it; running it again reads the change. */
    TRANSACTION_CONFLICT(ErrorCategory.USER_ERROR),
    EXCEEDED_MEMORY_LIMIT(ErrorCategory.INSUFFICIENT_RESOURCES),
    EXCEEDED_SPILL_LIMIT(ErrorCategory.INSUFFICIENT_RESOURCES),
    /** The query ran longer than its maximum run time ({@code query_max_run_time}). */
    EXCEEDED_TIME_LIMIT(ErrorCategory.INSUFFICIENT_RESOURCES),
    /** The engine runs as many queries as it may and its queue is full ({@code ontul.query.max-queued}). */
    QUERY_QUEUE_FULL(ErrorCategory.INSUFFICIENT_RESOURCES),
    EXTERNAL_ERROR(ErrorCategory.EXTERNAL),
    /**
     * A worker of the cluster died or could not be reached while it ran part of the query (the
     * session property {@code retry_policy = 'query'} runs such a query again, once, on the live workers).
     */
    WORKER_LOST(ErrorCategory.EXTERNAL),
    INTERNAL_ERROR(ErrorCategory.INTERNAL);

    private final ErrorCategory category;

    ErrorCode(ErrorCategory category)
    {
        this.category = category;
    }

    public ErrorCategory category()
    {
        return category;
    }
}
