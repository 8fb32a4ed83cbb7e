package io.ontul.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.cli.CommandEnvironment;

/** Runs {@code ontul sql --server} in process against a server on a free port. */
class TestOntulMainSqlServer
{
    private static final String PASSWORD = "test-password-3";

    @TempDir
    static Path dataDirectory;

    @TempDir
    Path configurationDirectory;

    private static OntulServer server;

    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    private final ByteArrayOutputStream error = new ByteArrayOutputStream();

    @BeforeAll
    static void start()
            throws Exception
    {
        server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
    }

    @AfterAll
    static void stop()
    {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void connectsWithTlsTrustingTheGeneratedCertificate(@TempDir Path tlsDataDirectory)
            throws Exception
    {
        EngineConfig tls = EngineConfig.embeddedDefaults().withProperty(io.ontul.server.tls.TlsConfig.ENABLED, "true");
        try (OntulServer tlsServer = OntulServer.start(tls, tlsDataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()))) {
            Path certificate = tlsDataDirectory.resolve("tls/server.crt");
            int exitCode = run(Map.of("ONTUL_PASSWORD", PASSWORD), "", "sql", "--format", "csv", "--server", "localhost:" + tlsServer.port(),
                    "--trust-cert", certificate.toString(), "SELECT count(*) AS n FROM tpch.tiny.nation");
            assertThat(exitCode).as(this::error).isEqualTo(0);
            assertThat(output()).isEqualTo("n\r\n25\r\n");

            output.reset();
            error.reset();
            int plain = run(Map.of("ONTUL_PASSWORD", PASSWORD), "", "sql", "--server", "localhost:" + tlsServer.port(), "SELECT 1");
            assertThat(plain).isEqualTo(1);
            assertThat(error()).contains("Cannot");
        }
    }

    @Test
    void printsTableFromServer()
    {
        int exitCode = run(Map.of(), "", "sql", "--server", "127.0.0.1:" + server.port(), "--user", "admin", "--password", PASSWORD,
                "SELECT n_name FROM tpch.tiny.nation WHERE n_nationkey < 3 ORDER BY n_nationkey");
        assertThat(exitCode).as(this::error).isEqualTo(0);
        assertThat(error()).isEmpty();
        assertThat(output()).isEqualTo("""
                  n_name
                -----------
                 ALGERIA
                 ARGENTINA
                 BRAZIL
                (3 rows)
                """);
    }

    @Test
    void runsUpdatesAndReportsErrorsWithPasswordFromEnvironment()
    {
        String script = """
                CREATE TABLE memory.default.cli_server (id BIGINT);
                INSERT INTO memory.default.cli_server VALUES (1), (2);
                SELECT * FROM tpch.tiny.no_such_table;
                SELECT count(*) AS n FROM memory.default.cli_server;
                DROP TABLE memory.default.cli_server;
                """;
        int exitCode = run(Map.of("ONTUL_PASSWORD", PASSWORD), script, "sql", "--format", "csv", "--server", "127.0.0.1:" + server.port());
        assertThat(exitCode).isEqualTo(1);
        assertThat(error()).startsWith("Query failed: ").contains("no_such_table");
        assertThat(output()).contains("n\r\n2\r\n");
    }

    @Test
    void wrongPasswordFails()
    {
        int exitCode = run(Map.of(), "", "sql", "--server", "127.0.0.1:" + server.port(), "--password", "wrong", "SELECT 1");
        assertThat(exitCode).isEqualTo(1);
        assertThat(error()).contains("Cannot start Ontul");
    }

    private int run(Map<String, String> variables, String input, String... arguments)
    {
        CommandEnvironment environment = new CommandEnvironment(
                new ByteArrayInputStream(input.getBytes(UTF_8)),
                output,
                new PrintStream(error, true, UTF_8),
                variables,
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
