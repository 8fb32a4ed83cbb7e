package io.ontul.engine.execution;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.validate.SqlValidatorException;

import io.ontul.engine.api.ErrorMessages;
import io.ontul.engine.query.QueryContext;
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
    private static final Pattern OBJECT_NOT_FOUND_WITHIN = Pattern.compile("Object '([^']*)' not found within '([^']*)'");
    private static final Pattern OBJECT_NOT_FOUND = Pattern.compile("Object '([^']*)' not found");
    private static final Pattern TABLE_NOT_FOUND = Pattern.compile("Table '([^']*)' not found");
    private static final Pattern COLUMN_NOT_FOUND = Pattern.compile("Column '([^']*)' not found in (any table|table '[^']*')");

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

    /** A validation error with its position and Ontul's wording. */
    public static OntulException validation(CalciteContextException error, String sql)
    {
        String prefix = "line " + error.getPosLine() + ":" + error.getPosColumn() + ": ";
        Throwable cause = error.getCause();
        // Calcite lists the forms an operator supports one per line
        String message = ErrorMessages.abbreviate(String.valueOf(cause instanceof SqlValidatorException ? cause.getMessage() : error.getMessage()).replace("'\n'", "', '"),
                MAX_QUOTED_MESSAGE);
        Matcher matcher = OBJECT_NOT_FOUND_WITHIN.matcher(message);
        if (matcher.find()) {
            String within = matcher.group(2);
            String kind = within.contains(".") ? "Table" : "Schema";
            return new OntulException(ErrorCode.NOT_FOUND, prefix + kind + " '" + within + "." + matcher.group(1) + "' does not exist");
        }
        matcher = OBJECT_NOT_FOUND.matcher(message);
        if (matcher.find()) {
            String kind = sql != null && identifierParts(sql, error.getPosLine(), error.getPosColumn()) >= 3 ? "Catalog" : "Table";
            return new OntulException(ErrorCode.NOT_FOUND, prefix + kind + " '" + matcher.group(1) + "' does not exist");
        }
        matcher = TABLE_NOT_FOUND.matcher(message);
        if (matcher.find()) {
            return new OntulException(ErrorCode.NOT_FOUND, prefix + "Table '" + matcher.group(1) + "' does not exist");
        }
        matcher = COLUMN_NOT_FOUND.matcher(message);
        if (matcher.find()) {
            return new OntulException(ErrorCode.NOT_FOUND, prefix + "Column '" + matcher.group(1) + "' cannot be resolved");
        }
        ErrorCode code = message.startsWith("Cannot apply") || message.contains("type") ? ErrorCode.TYPE_MISMATCH : ErrorCode.INVALID_ARGUMENT;
        return new OntulException(code, prefix + message);
    }

    private static int identifierParts(String sql, int line, int column)
    {
        String[] lines = sql.split("\n", -1);
        if (line < 1 || line > lines.length) {
            return 0;
        }
        String text = lines[line - 1];
        int start = Math.max(0, column - 1);
        int end = start;
        while (end < text.length() && (Character.isLetterOrDigit(text.charAt(end)) || "_.\"".indexOf(text.charAt(end)) >= 0)) {
            end++;
        }
        return text.substring(start, end).split("\\.").length;
    }
}
