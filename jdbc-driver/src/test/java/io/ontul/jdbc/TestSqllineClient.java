package io.ontul.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import sqlline.SqlLine;

/**
 * sqlline 1.12, a generic JDBC client that knows nothing of Ontul, against a real server with
 * Ontul's driver and with Arrow's Flight SQL driver: its metadata commands list rows and print no
 * stack trace.
 */
class TestSqllineClient
{
    private static TestingServer server;

    @TempDir
    Path directory;

    @BeforeAll
    static void startServer()
            throws IOException
    {
        server = new TestingServer();
    }

    @AfterAll
    static void stopServer()
    {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void metadataCommandsWithOntulsDriver()
            throws IOException
    {
        String output = sqlline(server.url("/tpch/tiny"));
        assertCommonOutput(output);
        // getTypeInfo from the server's system.jdbc.types: every type Ontul has
        assertThat(section(output, "!typeinfo")).contains("BIGINT", "VARCHAR", "DECIMAL", "TIMESTAMP", "BOOLEAN", "DATE");
        assertThat(section(output, "!dbinfo")).containsPattern("storesLowerCaseIdentifiers +true").containsPattern("storesUpperCaseIdentifiers +false");
    }

    @Test
    void metadataCommandsWithArrowsDriver()
            throws IOException
    {
        // without Arrow's catalog parameter: with it, Arrow's 18.3.0 driver closes its session a
        // second time on a closed channel when sqlline quits ("Channel shutdown invoked")
        String output = sqlline(server.arrowUrl());
        assertCommonOutput(output);
        // Arrow's driver never asks the server for its types (Avatica's empty default): no rows,
        // but no failure either
        assertThat(section(output, "!typeinfo")).contains("TYPE_NAME").doesNotContain("BIGINT");
        // it reports upper-case identifiers, so sqlline asks for NATION: the server folds it
        assertThat(section(output, "!dbinfo")).containsPattern("storesUpperCaseIdentifiers +true");
    }

    private static void assertCommonOutput(String output)
    {
        assertThat(output).doesNotContain("Exception", "\tat ", "Error:");
        assertThat(section(output, "!tables")).contains("nation", "lineitem", "region");
        assertThat(section(output, "!columns nation")).contains("n_nationkey", "n_name", "n_regionkey", "n_comment");
        assertThat(section(output, "!primarykeys nation")).contains("n_nationkey");
        assertThat(section(output, "!dbinfo")).contains("getDatabaseProductName", "Ontul");
        assertThat(section(output, "SELECT")).contains("25");
    }

    /** Runs the commands in sqlline, connected with {@code url} as admin; returns what it printed. */
    private String sqlline(String url)
            throws IOException
    {
        Path script = directory.resolve("commands.sql");
        Files.write(script, List.of(
                "VALUES ('==== !tables');", "!tables",
                "VALUES ('==== !columns nation');", "!columns nation",
                "VALUES ('==== !primarykeys nation');", "!primarykeys nation",
                "VALUES ('==== !typeinfo');", "!typeinfo",
                "VALUES ('==== !dbinfo');", "!dbinfo",
                "VALUES ('==== SELECT');", "SELECT count(*) FROM tpch.tiny.nation;",
                "!quit"));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        SqlLine sqlLine = new SqlLine();
        sqlLine.setOutputStream(out);
        sqlLine.setErrorStream(out);
        SqlLine.Status status = sqlLine.begin(new String[] {"-u", url, "-n", "admin", "-p", TestingServer.PASSWORD, "--color=false", "--maxWidth=400",
                "--run=" + script}, new ByteArrayInputStream(new byte[0]), false);
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertThat(status).as("sqlline's status; it printed:%n%s", output).isEqualTo(SqlLine.Status.OK);
        return output;
    }

    /** What sqlline printed for one command: from the row of its marker to the next marker query. */
    private static String section(String output, String command)
    {
        int start = output.indexOf("| ==== " + command + " ");
        assertThat(start).as("output of %s in:%n%s", command, output).isNotNegative();
        int end = output.indexOf("VALUES ('==== ", start);
        return output.substring(start, end < 0 ? output.length() : end);
    }
}
