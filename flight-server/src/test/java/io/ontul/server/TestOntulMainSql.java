package io.ontul.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.server.cli.CommandEnvironment;

/** Runs {@code ontul sql} in process against the real engine with its built-in catalogs. */
class TestOntulMainSql
{
    @TempDir
    Path configurationDirectory;

    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final ByteArrayOutputStream error = new ByteArrayOutputStream();

    @Test
    void printsTableForArgument()
    {
        assertThat(run("", "sql", "SELECT 1 AS a, 'x' AS b")).as(this::error).isEqualTo(0);

        assertThat(error()).isEmpty();
        assertThat(output()).isEqualTo("""
                 a | b
                ---+---
                 1 | x
                (1 row)
                """);
    }

    @Test
    void runsStatementsFromInputInEveryFormat()
    {
        String script = "SELECT n_name FROM tpch.tiny.nation WHERE n_nationkey < 2 ORDER BY n_nationkey;\nSELECT * FROM tpch.tiny.no_such_table;\n";

        assertThat(run(script, "sql", "--format", "csv")).isEqualTo(1);
        assertThat(output()).as(this::error).isEqualTo("n_name\r\nALGERIA\r\nARGENTINA\r\n");
        assertThat(error()).startsWith("Query failed: ").contains("no_such_table");

        output.reset();
        assertThat(run("", "sql", "--format", "json", "SELECT CAST(1.50 AS DECIMAL(5, 2)) AS price, DATE '2024-02-29' AS sold_on, CAST(NULL AS INTEGER) AS n")).as(this::error).isEqualTo(0);
        assertThat(output()).isEqualTo("{\"price\":1.50,\"sold_on\":\"2024-02-29\",\"n\":null}\n");
    }

    @Test
    void rejectsUnknownCommand()
    {
        assertThat(run("", "serve")).isEqualTo(2);
        assertThat(error()).startsWith("Unknown command 'serve'\n\nUsage: ontul <command> [options]");
    }

    @Test
    void printsHelp()
    {
        assertThat(run("", "help")).isEqualTo(0);
        assertThat(output()).isEqualTo(OntulMain.USAGE);
    }

    @Test
    void readsConfigurationFromHomeProperty()
            throws Exception
    {
        Files.createDirectories(configurationDirectory.resolve("conf"));
        String previous = System.getProperty(OntulMain.HOME_PROPERTY);
        System.setProperty(OntulMain.HOME_PROPERTY, configurationDirectory.toString());
        try {
            assertThat(OntulMain.defaultConfigurationDirectory()).isEqualTo(configurationDirectory.resolve("conf"));
        }
        finally {
            if (previous == null) {
                System.clearProperty(OntulMain.HOME_PROPERTY);
            }
            else {
                System.setProperty(OntulMain.HOME_PROPERTY, previous);
            }
        }
        if (previous == null) {
            assertThat(OntulMain.defaultConfigurationDirectory()).isEqualTo(Path.of("conf"));
        }
    }

    private int run(String input, String... arguments)
    {
        CommandEnvironment environment = new CommandEnvironment(
                new ByteArrayInputStream(input.getBytes(UTF_8)),
                output,
                new PrintStream(error, true, UTF_8),
                Map.of(),
                false);
        return new OntulMain(environment, configurationDirectory).run(arguments);
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
