package io.ontul.engine.execution;

import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.calcite.runtime.CalciteContextException;

import io.ontul.engine.api.ErrorMessages;
import io.ontul.engine.query.QueryContext;
import io.ontul.engine.sql.parser.ValidationErrors;
import io.ontul.exchange.ExchangeStorageException;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Translates failures into the one exception users see. Calcite validation messages are
 * rewritten into Ontul's wording with a {@code line L:C:} prefix; Arrow allocation failures
 * become the query's memory-limit error; spill and checkpoint storage failures are EXTERNAL; anything unexpected is an INTERNAL error that says it
 * is a bug and carries the query id.
 */
public final class Errors
{

    /** Characters of a foreign message (Calcite's, a library's) quoted to a client; some quote whole expressions. */
    static final int MAX_QUOTED_MESSAGE = 1000;

    private Errors() {}

    public static RuntimeException translate(Throwable error, QueryContext context)
    {
        if (error instanceof OntulException ontul) {
            return ontul;
        }
        if (error instanceof OutOfMemoryException) {
            // keeps the allocation that was refused as the cause: the log then shows where memory ran out
            return context == null
                    ? new OntulException(ErrorCode.EXCEEDED_MEMORY_LIMIT, "Engine memory exhausted: " + error.getMessage(), error)
                    : context.exceededMemoryLimit(error);
        }
        Throwable cause = error.getCause();
        if (cause instanceof OntulException ontul) {
            return ontul;
        }
        if (cause instanceof OutOfMemoryException) {
            return translate(cause, context);
        }
        ExchangeStorageException storage = storageFailure(error);
        if (storage != null) {
            return storageError(storage);
        }
        if (error instanceof CalciteContextException calcite) {
            return validation(calcite, null);
        }
        if (error instanceof ArithmeticException arithmetic) {
            return new OntulException(ErrorCode.NUMERIC_OVERFLOW, "Numeric overflow: " + arithmetic.getMessage());
        }
        String queryId = context == null ? "" : " (query " + context.queryId() + ")";
        return OntulException.internal(ErrorMessages.abbreviate(error.toString(), MAX_QUOTED_MESSAGE) + queryId, error);
    }

    /**
     * Spill and checkpoint storage failing (a full disk, a permission, a storage service down)
     * is not a bug: an EXTERNAL error naming the file or folder and the storage's reason.
     */
    public static OntulException storageError(ExchangeStorageException storage)
    {
        return new OntulException(ErrorCode.EXTERNAL_ERROR, "Exchange storage failed: " + ErrorMessages.abbreviate(storage.getMessage(), MAX_QUOTED_MESSAGE)
                + " (check free space and permissions there: ontul.exchange.base.dir)", storage);
    }

    /** The storage failure behind {@code error}, wrapped as tasks and futures wrap failures, or null. */
    private static ExchangeStorageException storageFailure(Throwable error)
    {
        Throwable current = error;
        for (int depth = 0; current != null && depth < 8; depth++) {
            if (current instanceof ExchangeStorageException storage) {
                return storage;
            }
            current = current.getCause();
        }
        return null;
    }

    /** A validation error with its position and Ontul's wording ({@link ValidationErrors}). */
    public static OntulException validation(CalciteContextException error, String sql)
    {
        return ValidationErrors.translate(error, sql);
    }
}
