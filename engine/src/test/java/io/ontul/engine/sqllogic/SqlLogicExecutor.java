package io.ontul.engine.sqllogic;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.opentest4j.AssertionFailedError;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.sqllogic.SqlLogicCase.SortMode;
import io.ontul.spi.OntulException;

/**
 * Runs cases against one {@link Session} and fails with the location, the SQL, and expected
 * versus actual output.
 */
final class SqlLogicExecutor
{
    // a statement that should have failed may return a whole table; its first rows are enough
    private static final int SUCCEEDED_ROWS_SHOWN = 20;

    private final Session session;

    SqlLogicExecutor(Session session)
    {
        this.session = requireNonNull(session, "session is null");
    }

    void run(SqlLogicCase testCase)
    {
        Outcome outcome = execute(testCase.sql());
        switch (testCase.kind()) {
            case STATEMENT -> outcome.failure().ifPresent(failure -> {
                throw failed(testCase, "statement failed: " + describe(failure), failure);
            });
            case ERROR -> checkError(testCase, outcome);
            case QUERY -> checkRows(testCase, outcome);
        }
    }

    private static void checkError(SqlLogicCase testCase, Outcome outcome)
    {
        ExpectedError expected = testCase.expectedError().orElseThrow();
        if (outcome.failure().isEmpty()) {
            List<String> rows = outcome.rows();
            String shown = rows.size() <= SUCCEEDED_ROWS_SHOWN
                    ? formatRows(rows)
                    : formatRows(rows.subList(0, SUCCEEDED_ROWS_SHOWN)) + "\n  ... and " + (rows.size() - SUCCEEDED_ROWS_SHOWN) + " more rows";
            throw failed(testCase, "expected error\n  " + expected + "\nbut it succeeded with " + shown, null);
        }
        RuntimeException failure = outcome.failure().get();
        if (!(failure instanceof OntulException ontulException)) {
            throw failed(testCase, "expected error\n  " + expected + "\nbut got a non-Ontul exception (a bug: users must only see OntulException)\n  " + describe(failure), failure);
        }
        if (!expected.matches(ontulException)) {
            String message = "error differs\nexpected:\n  " + expected + "\nactual:\n  " + ontulException.category() + ": " + ontulException.getMessage();
            throw new AssertionFailedError(header(testCase) + message, expected.toString(), ontulException.category() + ": " + ontulException.getMessage(), failure);
        }
    }

    private static void checkRows(SqlLogicCase testCase, Outcome outcome)
    {
        if (outcome.failure().isPresent()) {
            RuntimeException failure = outcome.failure().get();
            throw failed(testCase, "query failed: " + describe(failure), failure);
        }
        if (outcome.columnCount() != testCase.types().length()) {
            throw failed(testCase, "query returned " + outcome.columnCount() + " columns but the header declares " + testCase.types().length() + " (" + testCase.types() + ")\nactual " + formatRows(outcome.rows()), null);
        }
        List<String> expected = new ArrayList<>(testCase.expectedRows());
        List<String> actual = new ArrayList<>(outcome.rows());
        if (testCase.sortMode() == SortMode.ROWSORT) {
            expected.sort(null);
            actual.sort(null);
        }
        if (!expected.equals(actual)) {
            String message = "result differs" + (testCase.sortMode() == SortMode.ROWSORT ? " (both sides sorted)" : "")
                    + "\nexpected " + formatRows(expected)
                    + "\nactual " + formatRows(actual);
            throw new AssertionFailedError(header(testCase) + message, String.join("\n", expected), String.join("\n", actual));
        }
    }

    private Outcome execute(String sql)
    {
        List<String> rows = new ArrayList<>();
        int columnCount = -1;
        try (QueryResult result = session.execute(sql)) {
            columnCount = result.schema().getFields().size();
            for (VectorSchemaRoot batch = result.nextBatch(); batch != null; batch = result.nextBatch()) {
                List<FieldVector> vectors = batch.getFieldVectors();
                for (int row = 0; row < batch.getRowCount(); row++) {
                    List<String> values = new ArrayList<>(vectors.size());
                    for (FieldVector vector : vectors) {
                        values.add(ValueRenderer.render(vector, row));
                    }
                    rows.add(String.join(" ", values));
                }
            }
        }
        catch (RuntimeException e) {
            return new Outcome(columnCount, rows, Optional.of(e));
        }
        return new Outcome(columnCount, rows, Optional.empty());
    }

    private static AssertionFailedError failed(SqlLogicCase testCase, String message, Throwable cause)
    {
        return new AssertionFailedError(header(testCase) + message, cause);
    }

    private static String header(SqlLogicCase testCase)
    {
        return testCase.location() + "\nSQL:\n" + testCase.sql().lines().map(line -> "  " + line).collect(Collectors.joining("\n")) + "\n";
    }

    private static String describe(RuntimeException failure)
    {
        if (failure instanceof OntulException ontulException) {
            return ontulException.category() + ": " + ontulException.getMessage();
        }
        return failure.getClass().getName() + ": " + failure.getMessage();
    }

    private static String formatRows(List<String> rows)
    {
        if (rows.isEmpty()) {
            return "(0 rows)";
        }
        return "(" + rows.size() + (rows.size() == 1 ? " row" : " rows") + "):\n" + rows.stream().map(row -> "  " + row).collect(Collectors.joining("\n"));
    }

    private record Outcome(int columnCount, List<String> rows, Optional<RuntimeException> failure) {}
}
