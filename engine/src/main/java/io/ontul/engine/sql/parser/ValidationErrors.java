package io.ontul.engine.sql.parser;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.validate.SqlValidatorException;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Calcite's validation messages in Ontul's wording, with the {@code line L:C:} prefix of where in
 * the statement's text they point: for the statement executor, and for the planner when the text
 * is a view's definition.
 */
public final class ValidationErrors
{
    private static final Pattern OBJECT_NOT_FOUND_WITHIN = Pattern.compile("Object '([^']*)' not found within '([^']*)'");
    private static final Pattern OBJECT_NOT_FOUND = Pattern.compile("Object '([^']*)' not found");
    private static final Pattern TABLE_NOT_FOUND = Pattern.compile("Table '([^']*)' not found");
    private static final Pattern COLUMN_NOT_FOUND = Pattern.compile("Column '([^']*)' not found in (any table|table '[^']*')");

    /** Characters of Calcite's message quoted at most (some quote whole expressions). */
    private static final int MAX_QUOTED_MESSAGE = 1000;

    private ValidationErrors() {}

    /** @param sql the text the error's position is in, or null */
    public static OntulException translate(CalciteContextException error, String sql)
    {
        String prefix = "line " + error.getPosLine() + ":" + error.getPosColumn() + ": ";
        Throwable cause = error.getCause();
        // Calcite lists the forms an operator supports one per line
        String message = String.valueOf(cause instanceof SqlValidatorException ? cause.getMessage() : error.getMessage()).replace("'\n'", "', '");
        if (message.length() > MAX_QUOTED_MESSAGE) {
            message = message.substring(0, MAX_QUOTED_MESSAGE) + "... (" + message.length() + " characters in all)";
        }
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
