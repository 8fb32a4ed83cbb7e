package io.ontul.server.cli;

import static io.ontul.server.cli.Batches.batch;
import static io.ontul.server.cli.Batches.integers;
import static io.ontul.server.cli.Batches.strings;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

class TestSqlCommand
{
    private final BufferAllocator allocator = new RootAllocator();
    private final FakeStatementExecutor executor = new FakeStatementExecutor();
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final ByteArrayOutputStream error = new ByteArrayOutputStream();
    private Path openedConfiguration;

    @AfterEach
    void closeAllocator()
    {
        allocator.close();
    }

    @Test
    void printsResultOfArgumentAsTable()
    {
        executor.answer("SELECT 1 AS a, 'x' AS b", () -> FakeQueryResult.of(batch(integers(allocator, "a", 1), strings(allocator, "b", "x"))));

        assertThat(run("", "SELECT 1 AS a, 'x' AS b;")).isEqualTo(0);

        assertThat(output()).isEqualTo("""
                 a | b
                ---+---
                 1 | x
                (1 row)
                """);
        assertThat(error()).isEmpty();
        assertThat(executor.results()).allMatch(result -> ((FakeQueryResult) result).isClosed());
        assertThat(executor.isClosed()).isTrue();
        assertThat(openedConfiguration).isEqualTo(Path.of("default-conf"));
    }

    @Test
    void runsEveryStatementFromInputAndFailsAtTheEnd()
    {
        executor.answer("SELECT 1", () -> FakeQueryResult.of(batch(integers(allocator, "a", 1))))
                .fail("SELECT * FROM nope", OntulException.userError(ErrorCode.NOT_FOUND, "line 1:15: Table 'nope' does not exist"))
                .answer("SELECT 2", () -> FakeQueryResult.of(batch(integers(allocator, "a", 2))));

        assertThat(run("SELECT 1;\nSELECT * FROM nope;\nSELECT 2;\n", "--format", "csv")).isEqualTo(1);

        assertThat(executor.executed()).containsExactly("SELECT 1", "SELECT * FROM nope", "SELECT 2");
        assertThat(output()).isEqualTo("a\r\n1\r\na\r\n2\r\n");
        assertThat(error()).isEqualTo("Query failed: line 1:15: Table 'nope' does not exist\n");
    }

    @Test
    void stopsAtFirstFailureOfArgumentScript()
    {
        executor.fail("SELECT x", OntulException.userError(ErrorCode.NOT_FOUND, "line 1:8: Column 'x' not found"));

        assertThat(run("", "--format=json", "SELECT x; SELECT 2")).isEqualTo(1);

        assertThat(executor.executed()).containsExactly("SELECT x");
        assertThat(error()).isEqualTo("Query failed: line 1:8: Column 'x' not found\n");
    }

    @Test
    void printsRowsBeforeAFailureInTheMiddleOfAResult()
    {
        executor.answer("SELECT a", () -> {
            VectorSchemaRoot batch = batch(integers(allocator, "a", 1));
            return new FakeQueryResult(batch.getSchema(), false, List.of(batch), OntulException.userError(ErrorCode.DIVISION_BY_ZERO, "Division by zero"));
        });

        assertThat(run("", "--format", "csv", "SELECT a")).isEqualTo(1);

        assertThat(output()).isEqualTo("a\r\n1\r\n");
        assertThat(error()).isEqualTo("Query failed: Division by zero\n");
    }

    @Test
    void reportsBugsWithoutStackTraceUnlessDebugging()
    {
        executor.fail("SELECT 1", new IllegalStateException("boom"))
                .fail("SELECT 2", OntulException.internal("lost a batch", null));

        assertThat(run("SELECT 1; SELECT 2")).isEqualTo(1);
        assertThat(error()).isEqualTo("""
                Internal error (this is a bug): java.lang.IllegalStateException: boom
                Set ONTUL_DEBUG=1 to print the stack trace.
                Query failed: Internal error (this is a bug in Ontul): lost a batch
                Set ONTUL_DEBUG=1 to print the stack trace.
                """);

        error.reset();
        assertThat(command(Map.of("ONTUL_DEBUG", "1"), "SELECT 1").run(List.of())).isEqualTo(1);
        assertThat(error()).startsWith("Internal error (this is a bug): java.lang.IllegalStateException: boom\njava.lang.IllegalStateException: boom\n\tat ");
    }

    @Test
    void reportsEngineThatCannotStart()
    {
        SqlCommand command = new SqlCommand(environment(Map.of(), ""), Path.of("conf"), directory -> {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog file conf/catalogs/x.properties has no connector.name");
        });

        assertThat(command.run(List.of("SELECT 1"))).isEqualTo(1);
        assertThat(error()).isEqualTo("Cannot start Ontul: Catalog file conf/catalogs/x.properties has no connector.name\n");
    }

    @Test
    void rejectsBadCommandLines()
    {
        assertThat(run("", "--format", "xml", "SELECT 1")).isEqualTo(2);
        assertThat(error()).startsWith("Unknown format 'xml': expected one of table, csv, json\n\nUsage: ontul sql");

        error.reset();
        assertThat(run("", "SELECT", "1")).isEqualTo(2);
        assertThat(error()).startsWith("Expected one SQL argument but got 2; put the SQL in quotes: ontul sql \"SELECT ...\"\n");

        error.reset();
        assertThat(run("", "--verbose")).isEqualTo(2);
        assertThat(error()).startsWith("Unknown option '--verbose'\n");

        error.reset();
        assertThat(run("", "--conf", "/does/not/exist", "SELECT 1")).isEqualTo(2);
        assertThat(error()).isEqualTo("Configuration directory /does/not/exist does not exist\n");
        assertThat(executor.executed()).isEmpty();
    }

    @Test
    void takesSqlThatLooksLikeAnOption()
    {
        executor.answer("-- first line\nSELECT 1", () -> FakeQueryResult.of(batch(integers(allocator, "a", 1))));

        assertThat(run("", "-- first line\nSELECT 1")).isEqualTo(0);
        assertThat(executor.executed()).containsExactly("-- first line\nSELECT 1");
    }

    @Test
    void printsHelp()
    {
        assertThat(run("", "--help")).isEqualTo(0);
        assertThat(output()).isEqualTo(SqlOptions.USAGE);
    }

    private int run(String input, String... arguments)
    {
        return command(Map.of(), input).run(List.of(arguments));
    }

    private SqlCommand command(Map<String, String> variables, String input)
    {
        return new SqlCommand(environment(variables, input), Path.of("default-conf"), directory -> {
            openedConfiguration = directory;
            return executor;
        });
    }

    private CommandEnvironment environment(Map<String, String> variables, String input)
    {
        return new CommandEnvironment(new ByteArrayInputStream(input.getBytes(UTF_8)), output, new PrintStream(error, true, UTF_8), variables, false);
    }

    private String output()
    {
        return output.toString(UTF_8);
    }

    private String error()
    {
        return error.toString(UTF_8);
    }
}
