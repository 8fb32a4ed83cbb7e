package io.ontul.catalog.jdbc;

import static io.ontul.catalog.jdbc.JdbcTesting.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ontul.catalog.jdbc.testing.TestingPostgres;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.Session;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * An unreachable database, a wrong password and a database that goes away are EXTERNAL errors
 * naming the server; the password never appears in a message, a log line or toString.
 */
class TestJdbcCredentials
{
    private static TestingPostgres postgres;
    private static BufferAllocator allocator;

    @BeforeAll
    static void setUp()
    {
        postgres = TestingPostgres.shared();
        allocator = new RootAllocator();
    }

    @AfterAll
    static void tearDown()
    {
        allocator.close();
    }

    @Test
    void unreachableDatabaseNamesTheServer()
            throws IOException
    {
        int port = closedPort();
        Map<String, String> properties = JdbcTesting.connectorProperties(postgres, changes -> changes.put("connection-url", "jdbc:postgresql://127.0.0.1:" + port + "/postgres"));
        // creating the catalog does not connect
        try (Connector connector = JdbcTesting.createConnector(properties, allocator)) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> connector.metadata().listSchemas())
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_ERROR))
                    .hasMessage("Cannot connect to PostgreSQL at 127.0.0.1:" + port + " for catalog 'pg': Connection refused");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            // and again: the pool is not stuck in a failed state
            assertThatThrownBy(() -> connector.metadata().getTable("public", "t")).hasMessageContaining("127.0.0.1:" + port);
        }
    }

    @Test
    void engineStartsWithABrokenCatalog()
            throws IOException
    {
        int port = closedPort();
        Map<String, String> catalog = new HashMap<>(postgres.catalogProperties());
        catalog.put("connection-url", "jdbc:postgresql://127.0.0.1:" + port + "/postgres");
        try (Engine engine = JdbcTesting.createEngine(catalog)) {
            Session session = engine.createSession("test");
            assertThat(JdbcTesting.execute(session, "SELECT count(*) FROM tpch.tiny.nation")).containsExactly(List.of(25L));
            assertThatThrownBy(() -> JdbcTesting.execute(session, "SELECT * FROM " + CATALOG + ".public.anything"))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_ERROR))
                    .hasMessageContaining("Cannot connect to PostgreSQL at 127.0.0.1:" + port + " for catalog 'pg': Connection refused");
        }
    }

    @Test
    void wrongPasswordSaysWhoseWithoutThePassword()
    {
        String wrong = "wrong-" + postgres.password();
        Map<String, String> properties = JdbcTesting.connectorProperties(postgres, changes -> changes.put("connection-password", wrong));
        try (Connector connector = JdbcTesting.createConnector(properties, allocator)) {
            assertThatThrownBy(() -> connector.metadata().listSchemas())
                    .isInstanceOfSatisfying(OntulException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_ERROR);
                        assertThat(e.getMessage()).doesNotContain(wrong).doesNotContain(postgres.password());
                    })
                    .hasMessage("Cannot connect to PostgreSQL at 127.0.0.1:" + postgres.port() + " for catalog 'pg': authentication failed for user 'ontul'");
        }
    }

    @Test
    void passwordNeverReachesLogsMessagesOrToString()
            throws IOException
    {
        String wrong = "wrong-" + postgres.password();
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.err;
        StringBuilder texts = new StringBuilder();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            try (Connector connector = JdbcTesting.createConnector(postgres, allocator)) {
                assertThat(connector.metadata().listSchemas()).contains("public");
                texts.append(connector).append('\n');
            }
            // the password in the URL instead of connection-password: taken out of the URL HikariCP logs
            Map<String, String> inUrl = JdbcTesting.connectorProperties(postgres, changes -> {
                changes.remove("connection-password");
                changes.put("connection-url", postgres.jdbcUrl() + "?ApplicationName=test&password=" + postgres.password());
            });
            try (Connector connector = JdbcTesting.createConnector(inUrl, allocator)) {
                assertThat(connector.metadata().listSchemas()).contains("public");
                texts.append(connector).append('\n');
            }
            Map<String, String> wrongPassword = JdbcTesting.connectorProperties(postgres, changes -> changes.put("connection-password", wrong));
            try (Connector connector = JdbcTesting.createConnector(wrongPassword, allocator)) {
                texts.append(connector).append('\n');
                try {
                    connector.metadata().listSchemas();
                }
                catch (OntulException e) {
                    texts.append(e.getMessage()).append('\n');
                    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                        texts.append(cause.getMessage()).append('\n');
                    }
                }
            }
            texts.append(JdbcConfig.parse("pg", wrongPassword)).append('\n');
        }
        finally {
            System.setErr(original);
        }
        String logs = captured.toString(StandardCharsets.UTF_8);
        // HikariCP's debug log of its configuration was captured
        assertThat(logs).contains("ontul-jdbc-pg - configuration:").contains("password........................<masked>");
        assertThat(logs).doesNotContain(postgres.password()).doesNotContain(wrong);
        assertThat(texts.toString()).contains("authentication failed").contains("password=****").doesNotContain(postgres.password()).doesNotContain(wrong);
    }

    @Test
    void databaseThatGoesAwayFailsClearly()
    {
        TestingPostgres own = TestingPostgres.start();
        Map<String, String> properties = new HashMap<>(own.catalogProperties());
        properties.remove("connector.name");
        properties.put("connection-pool.connection-timeout", "1s");
        try (Connector connector = JdbcTesting.createConnector(properties, allocator)) {
            own.execute("CREATE TABLE public.t (id integer)");
            assertThat(connector.metadata().listTables("public")).containsExactly("t");
            own.close();
            assertThatThrownBy(() -> connector.metadata().listTables("public"))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_ERROR))
                    .hasMessageStartingWith("Cannot connect to PostgreSQL at 127.0.0.1:" + own.port() + " for catalog 'pg': ");
        }
        finally {
            own.close();
        }
    }

    private static int closedPort()
            throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
