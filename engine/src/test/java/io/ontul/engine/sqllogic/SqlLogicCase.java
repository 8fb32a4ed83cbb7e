package io.ontul.engine.sqllogic;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * One record of a {@code .slt} file: a statement or a query, what it must produce, and where it
 * was written.
 */
public record SqlLogicCase(
        String file,
        int line,
        Kind kind,
        String sql,
        String types,
        SortMode sortMode,
        List<String> expectedRows,
        Optional<ExpectedError> expectedError)
{
    public enum Kind
    {
        /** {@code statement ok}: runs without error; its rows are ignored. */
        STATEMENT,
        /** {@code query <types> [rowsort|nosort]}: its rows must equal the expected rows. */
        QUERY,
        /** {@code statement error <message>} or {@code query error <message>}. */
        ERROR
    }

    public enum SortMode
    {
        /** Rows must come in the expected order. */
        NOSORT,
        /** Actual and expected rows are sorted as strings before comparing. */
        ROWSORT
    }

    public SqlLogicCase
    {
        requireNonNull(file, "file is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(sql, "sql is null");
        requireNonNull(types, "types is null");
        requireNonNull(sortMode, "sortMode is null");
        expectedRows = List.copyOf(requireNonNull(expectedRows, "expectedRows is null"));
        requireNonNull(expectedError, "expectedError is null");
        if ((kind == Kind.ERROR) != expectedError.isPresent()) {
            throw new IllegalArgumentException("an expected error is required exactly for ERROR cases");
        }
    }

    /** {@code file:line}, the place to look when the case fails. */
    public String location()
    {
        return file + ":" + line;
    }

    /** A short name for test reports: location and the first line of the SQL. */
    public String displayName()
    {
        String firstLine = sql.lines().findFirst().orElse("");
        if (firstLine.length() > 80) {
            firstLine = firstLine.substring(0, 77) + "...";
        }
        return location() + " " + firstLine;
    }
}
