package io.ontul.server.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.catalog.jdbc.testing.TestingPostgres;
import io.ontul.catalog.kafka.testing.EmbeddedKafka;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.ResultComparison;
import io.ontul.engine.testing.ResultRows;
import io.ontul.server.OntulServer;
import io.trino.tpch.TpchTable;

/**
 * The three outside systems behind one server, over real sockets: PostgreSQL (embedded), a Kafka
 * broker (in-process KRaft) and Iceberg tables on local disk, each a catalog created with
 * CREATE CATALOG through Arrow's JDBC driver, joined with each other and with tpch in one query
 * whose result equals DuckDB's over the same data. The catalogs and the Kafka table survive a
 * restart; JDBC metadata lists the tables with their columns and keys, as DBeaver asks for them.
 */
class TestFederatedCatalogs
{
    private static final String ADMIN_PASSWORD = "federation-admin";
    private static final int EVENTS = 600;

    @TempDir
    static Path dataDirectory;

    private static TestingPostgres postgres;
    private static EmbeddedKafka kafka;
    private static OntulServer server;

    @BeforeAll
    static void setUp()
            throws Exception
    {
        postgres = TestingPostgres.shared();
        postgres.execute(
                "DROP TABLE IF EXISTS public.customers",
                "DROP TABLE IF EXISTS public.regions",
                "CREATE TABLE public.regions (id INTEGER PRIMARY KEY, name TEXT NOT NULL)",
                "INSERT INTO public.regions VALUES (0, 'AFRICA'), (1, 'AMERICA')");
        kafka = EmbeddedKafka.start();
        kafka.createTopic("clicks", 3);
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
            records.add(new ProducerRecord<>("clicks", i % 3, null, event(i)));
        }
        records.add(new ProducerRecord<>("clicks", 0, null, "not json at all"));
        kafka.produce(records);

        server = start();
        try (Connection connection = connect(server); Statement statement = connection.createStatement()) {
            statement.execute("CREATE CATALOG pg USING jdbc WITH ('connection-url' = '" + postgres.jdbcUrl() + "', 'connection-user' = '"
                    + postgres.user() + "', 'connection-password' = '" + postgres.password() + "')");
            statement.execute("CREATE CATALOG events USING kafka WITH (\"kafka.bootstrap-servers\" = '" + kafka.bootstrapServers() + "')");
            statement.execute("CREATE CATALOG lake USING iceberg");
            statement.execute("CREATE TABLE pg.public.customers AS SELECT c_custkey, c_name, c_nationkey, c_mktsegment FROM tpch.tiny.customer");
            statement.execute("CREATE SCHEMA lake.history");
            statement.execute("CREATE TABLE lake.history.orders AS SELECT o_orderkey, o_custkey, o_totalprice, o_orderdate FROM tpch.tiny.orders");
            statement.execute("CREATE TABLE events.\"default\".clicks (event_id BIGINT, custkey BIGINT, amount DOUBLE, event_time TIMESTAMP(3)) "
                    + "WITH ('topic' = 'clicks', 'format' = 'json')");
        }
    }

    @AfterAll
    static void tearDown()
    {
        if (server != null) {
            server.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    private static String event(int i)
    {
        return "{\"event_id\": %d, \"custkey\": %d, \"amount\": %s, \"event_time\": \"2026-01-01T00:%02d:%02d.%03d\"}"
                .formatted(i, (i * 7) % 1500 + 1, (i % 50) * 1.25, i / 60 % 60, i % 60, i % 1000);
    }

    @Test
    void oneQueryJoinsKafkaPostgresIcebergAndTpch()
            throws Exception
    {
        String sql = """
                SELECT n.n_name, count(*) AS clicks, sum(e.amount) AS amount, count(DISTINCT o.o_orderkey) AS orders, max(e.event_time) AS latest
                FROM events."default".clicks e
                JOIN pg.public.customers c ON c.c_custkey = e.custkey
                JOIN tpch.tiny.nation n ON n.n_nationkey = c.c_nationkey
                JOIN lake.history.orders o ON o.o_custkey = c.c_custkey
                WHERE c.c_mktsegment = 'BUILDING' AND o.o_orderdate >= DATE '1995-01-01'
                GROUP BY n.n_name""";
        List<List<Object>> actual;
        List<String> columns;
        try (Connection connection = connect(server); Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            columns = ResultRows.columnNames(result.getMetaData());
            actual = ResultRows.drain(result);
        }
        List<List<Object>> expected;
        try (DuckDBConnection duckdb = DuckDbTpch.openInMemory()) {
            loadReference(duckdb);
            try (Statement statement = duckdb.createStatement(); ResultSet result = statement.executeQuery(sql
                    .replace("events.\"default\".clicks", "clicks")
                    .replace("pg.public.customers", "tiny.customer")
                    .replace("tpch.tiny.nation", "tiny.nation")
                    .replace("lake.history.orders", "tiny.orders"))) {
                expected = ResultRows.drain(result);
            }
        }
        assertThat(expected).hasSizeGreaterThan(10);
        assertThat(ResultComparison.compare(sql, columns, expected, actual)).isEmpty();
    }

    @Test
    void jdbcMetadataListsTablesColumnsAndKeysOfEveryCatalog()
            throws SQLException
    {
        try (Connection connection = connect(server)) {
            DatabaseMetaData metadata = connection.getMetaData();
            List<String> catalogs = strings(metadata.getCatalogs(), "TABLE_CAT");
            assertThat(catalogs).contains("pg", "events", "lake", "tpch");
            assertThat(strings(metadata.getTables("pg", "public", "%", null), "TABLE_NAME")).contains("customers", "regions");
            assertThat(strings(metadata.getTables("lake", "history", "%", null), "TABLE_NAME")).containsExactly("orders");
            assertThat(strings(metadata.getColumns("lake", "history", "orders", "%"), "COLUMN_NAME"))
                    .containsExactly("o_orderkey", "o_custkey", "o_totalprice", "o_orderdate");
            assertThat(strings(metadata.getColumns("pg", "public", "regions", "%"), "COLUMN_NAME")).containsExactly("id", "name");
            assertThat(strings(metadata.getPrimaryKeys("pg", "public", "regions"), "COLUMN_NAME")).containsExactly("id");
        }
    }

    @Test
    void catalogsAndKafkaTablesSurviveARestart()
            throws Exception
    {
        server.close();
        server = start();
        try (Connection connection = connect(server); Statement statement = connection.createStatement()) {
            try (ResultSet result = statement.executeQuery("SELECT count(*), count(DISTINCT _partition), min(event_id), max(event_id) FROM events.\"default\".clicks")) {
                assertThat(ResultRows.drain(result)).containsExactly(List.of((long) EVENTS, 3L, 0L, EVENTS - 1L));
            }
            try (ResultSet result = statement.executeQuery("SELECT count(*) FROM lake.history.orders")) {
                assertThat(ResultRows.drain(result)).containsExactly(List.of(15000L));
            }
            try (ResultSet result = statement.executeQuery("SELECT name FROM pg.public.regions ORDER BY id")) {
                assertThat(ResultRows.drain(result)).containsExactly(List.of("AFRICA"), List.of("AMERICA"));
            }
        }
    }

    /** Issue 23: a catalog definition must not run code or read files on the server's host, by CREATE CATALOG or in a catalog file. */
    @Test
    void catalogDefinitionsThatReachTheHostAreRefused()
            throws Exception
    {
        Path script = dataDirectory.resolve("x.sql");
        java.nio.file.Files.writeString(script, "CREATE TABLE ran_on_the_host (x INT);");
        try (Connection connection = connect(server); Statement statement = connection.createStatement()) {
            assertThatThrownBy(() -> statement.execute("CREATE CATALOG h2x USING jdbc WITH ('connection-url' = 'jdbc:h2:mem:p;INIT=RUNSCRIPT FROM ''" + script + "''')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Catalog 'h2x': property 'connection-url' must not set parameter 'INIT': it loads classes, runs scripts or opens files on the server's host");
            assertThatThrownBy(() -> statement.execute("CREATE CATALOG h2y USING jdbc WITH ('connection-url' = 'jdbc:h2:" + dataDirectory.resolve("metadata") + "')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Catalog 'h2y': property 'connection-url' uses JDBC driver 'jdbc:h2', which this server does not allow (allowed: mariadb, mysql, postgresql;");
            assertThatThrownBy(() -> statement.execute("CREATE CATALOG lite USING jdbc WITH ('connection-url' = 'jdbc:sqlite:/etc/hosts')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("uses JDBC driver 'jdbc:sqlite', which this server does not allow");
            assertThatThrownBy(() -> statement.execute("CREATE CATALOG pgx USING jdbc WITH ('connection-url' = '" + postgres.jdbcUrl() + "?socketFactory=java.lang.Object')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("must not set parameter 'socketFactory'");
            // TLS files a driver would read must lie inside ontul.security.allowed-paths (here the data directory)
            assertThatThrownBy(() -> statement.execute("CREATE CATALOG pgtls USING jdbc WITH ('connection-url' = '" + postgres.jdbcUrl()
                    + (postgres.jdbcUrl().contains("?") ? "&" : "?") + "sslmode=verify-full&sslrootcert=%2Fetc%2Fssl%2Fcerts%2Fca.pem')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Catalog 'pgtls': property 'connection-url' parameter 'sslrootcert' is '/etc/ssl/certs/ca.pem', which is outside the directories this server lets catalogs use");
            // what Iceberg's catalog and Hadoop are given through must not load classes or reach the host either
            for (String property : List.of("iceberg.catalog.io-impl", "iceberg.catalog.metrics-reporter-impl", "iceberg.hadoop.fs.file.impl",
                    "iceberg.hadoop.hadoop.security.credential.provider.path")) {
                assertThatThrownBy(() -> statement.execute("CREATE CATALOG lakex USING iceberg WITH (\"" + property + "\" = 'org.example.Evil')"))
                        .as(property)
                        .isInstanceOf(SQLException.class)
                        .hasMessageContaining("Catalog 'lakex': property '" + property + "' is refused: it loads classes by name or reads files through a provider on the server's host");
            }
            assertThatThrownBy(() -> statement.execute("CREATE CATALOG lakey USING iceberg WITH (\"iceberg.catalog.type\" = 'jdbc', \"iceberg.jdbc.url\" = '"
                    + postgres.jdbcUrl() + "', \"iceberg.catalog.jdbc.socketFactory\" = 'java.lang.Object')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Catalog 'lakey': property 'iceberg.catalog.jdbc.socketFactory' must not set parameter 'socketFactory'");
            assertThat(strings(connection.getMetaData().getCatalogs(), "TABLE_CAT")).doesNotContain("h2x", "h2y", "lite", "pgx", "pgtls", "lakex", "lakey");
        }
        // the same definitions in a catalog file stop the server from starting, naming the catalog,
        // and what the start had opened is released (its temporary exchange directory, say)
        java.util.Set<Path> exchangesBefore = temporaryExchanges();
        assertThatThrownBy(() -> io.ontul.engine.api.Engine.create(new EngineConfig(java.util.Map.of(),
                        java.util.Map.of("h2file", java.util.Map.of("connector.name", "jdbc", "connection-url", "jdbc:h2:mem:p")))).close())
                .hasMessage("Catalog 'h2file': property 'connection-url' uses JDBC driver 'jdbc:h2', which this server does not allow "
                        + "(allowed: mariadb, mysql, postgresql; an operator may change ontul.security.jdbc.allowed-drivers in conf/ontul.properties)");
        assertThat(temporaryExchanges()).as("temporary exchange directories left by the failed start").isSubsetOf(exchangesBefore);
        assertThatThrownBy(() -> io.ontul.engine.api.Engine.create(new EngineConfig(java.util.Map.of(),
                        java.util.Map.of("lakefile", java.util.Map.of("connector.name", "iceberg", "iceberg.warehouse", dataDirectory.resolve("w").toString(),
                                "iceberg.catalog.io-impl", "org.example.Evil")))).close())
                .hasMessageStartingWith("Catalog 'lakefile': property 'iceberg.catalog.io-impl' is refused");
    }

    /** Issue 23: Iceberg warehouses and table locations stay inside ontul.security.allowed-paths (here the data directory). */
    private static java.util.Set<Path> temporaryExchanges()
            throws java.io.IOException
    {
        try (java.util.stream.Stream<Path> entries = java.nio.file.Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return entries.filter(path -> path.getFileName().toString().startsWith("ontul-exchange-")).collect(java.util.stream.Collectors.toSet());
        }
    }

    @Test
    void icebergLocationsOutsideTheAllowedDirectoriesAreRefused()
            throws Exception
    {
        Path escape = dataDirectory.resolve("escape");
        java.nio.file.Files.createSymbolicLink(escape, Path.of("/etc"));
        try (Connection connection = connect(server); Statement statement = connection.createStatement()) {
            for (String warehouse : List.of("/etc", "file:///etc", dataDirectory + "/../..", escape.toString())) {
                assertThatThrownBy(() -> statement.execute("CREATE CATALOG outside USING iceberg WITH (\"iceberg.warehouse\" = '" + warehouse + "')"))
                        .as(warehouse)
                        .isInstanceOf(SQLException.class)
                        // the message shows the warehouse as the catalog resolved it (../.. is gone by then)
                        .hasMessageContaining("Catalog 'outside': property 'iceberg.warehouse' is '")
                        .hasMessageContaining("', which is outside the directories this server lets catalogs use (" + dataDirectory.toRealPath()
                                + "; an operator may change ontul.security.allowed-paths in conf/ontul.properties)");
            }
            assertThatThrownBy(() -> statement.execute("CREATE TABLE lake.history.elsewhere (x INTEGER) WITH (location = '/tmp/elsewhere')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Catalog 'lake': property 'location' is '/tmp/elsewhere', which is outside the directories");
            assertThatThrownBy(() -> statement.execute("CREATE SCHEMA lake.roaming WITH (location = '" + escape + "/x')"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("which is outside the directories");
            assertThat(strings(connection.getMetaData().getCatalogs(), "TABLE_CAT")).doesNotContain("outside");
            // inside the data directory, and remote locations, are fine
            statement.execute("CREATE CATALOG inside USING iceberg WITH (\"iceberg.warehouse\" = '" + dataDirectory.resolve("other-warehouse") + "')");
            statement.execute("CREATE SCHEMA inside.s");
            statement.execute("CREATE TABLE inside.s.t AS SELECT n_nationkey FROM tpch.tiny.nation");
            try (ResultSet result = statement.executeQuery("SELECT count(*) FROM inside.s.t")) {
                assertThat(ResultRows.drain(result)).containsExactly(List.of(25L));
            }
            statement.execute("DROP CATALOG inside");

            // the database of an Iceberg JDBC catalog: SQLite only inside the allowed directories,
            // other drivers and parameters as for JDBC catalogs
            String jdbcCatalog = "CREATE CATALOG ij USING iceberg WITH (\"iceberg.catalog.type\" = 'jdbc', \"iceberg.warehouse\" = '"
                    + dataDirectory.resolve("ij-warehouse") + "', \"iceberg.jdbc.url\" = '%s')";
            assertThatThrownBy(() -> statement.execute(jdbcCatalog.formatted("jdbc:sqlite:/etc/ontul-iceberg.db")))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("Catalog 'ij': property 'iceberg.jdbc.url' is '/etc/ontul-iceberg.db', which is outside the directories");
            assertThatThrownBy(() -> statement.execute(jdbcCatalog.formatted("jdbc:sqlite:" + dataDirectory.resolve("ij.db") + "?enable_load_extension=true")))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("must not let SQLite load extensions");
            assertThatThrownBy(() -> statement.execute(jdbcCatalog.formatted("jdbc:h2:mem:p;INIT=RUNSCRIPT FROM ''/tmp/x.sql''")))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("must not set parameter 'INIT'");
            assertThatThrownBy(() -> statement.execute(jdbcCatalog.formatted("jdbc:h2:mem:p")))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("uses JDBC driver 'jdbc:h2', which this server does not allow");
            assertThat(strings(connection.getMetaData().getCatalogs(), "TABLE_CAT")).doesNotContain("ij");
            statement.execute(jdbcCatalog.formatted("jdbc:sqlite:" + dataDirectory.resolve("ij.db")));
            statement.execute("CREATE SCHEMA ij.s");
            statement.execute("CREATE TABLE ij.s.t AS SELECT r_regionkey FROM tpch.tiny.region");
            try (ResultSet result = statement.executeQuery("SELECT sum(r_regionkey) FROM ij.s.t")) {
                assertThat(ResultRows.drain(result)).containsExactly(List.of(10L));
            }
            statement.execute("DROP CATALOG ij");
        }
    }

    @Test
    void unreachableDatabaseIsAClearErrorAndTheServerCarriesOn()
            throws Exception
    {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        // the server's log (slf4j-simple, standard error) is read too: the failure is logged, the password is not
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        PrintStream standardError = System.err;
        System.setErr(new PrintStream(new OutputStream()
        {
            @Override
            public void write(int b)
            {
                standardError.write(b);
                log.write(b);
            }

            @Override
            public void write(byte[] bytes, int offset, int length)
            {
                standardError.write(bytes, offset, length);
                log.write(bytes, offset, length);
            }
        }, true, java.nio.charset.StandardCharsets.UTF_8));
        try (Connection connection = connect(server); Statement statement = connection.createStatement()) {
            statement.execute("CREATE CATALOG broken USING jdbc WITH ('connection-url' = 'jdbc:postgresql://127.0.0.1:" + closedPort
                    + "/db', 'connection-user' = 'x', 'connection-password' = 'do-not-show-me')");
            assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM broken.public.t"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("127.0.0.1:" + closedPort)
                    .hasMessageNotContaining("do-not-show-me");
            // a listing over all catalogs leaves the dead one out instead of failing (DBeaver's tree)
            assertThat(strings(connection.getMetaData().getTables(null, null, "%", null), "TABLE_NAME")).contains("customers", "orders");
            assertThat(strings(connection.getMetaData().getSchemas(), "TABLE_SCHEM")).contains("public", "history");
            try (ResultSet result = statement.executeQuery("SELECT query FROM system.runtime.queries WHERE query LIKE 'CREATE CATALOG broken%'")) {
                assertThat(ResultRows.drain(result)).singleElement().asString().doesNotContain("do-not-show-me");
            }
            statement.execute("DROP CATALOG broken");
            try (ResultSet result = statement.executeQuery("SELECT count(*) FROM pg.public.customers")) {
                assertThat(ResultRows.drain(result)).containsExactly(List.of(1500L));
            }
        }
        finally {
            System.setErr(standardError);
        }
        assertThat(log.toString(java.nio.charset.StandardCharsets.UTF_8))
                .contains("127.0.0.1:" + closedPort)
                .contains("Catalog 'broken' left out of a metadata listing")
                .doesNotContain("do-not-show-me");
    }

    private static void loadReference(DuckDBConnection duckdb)
            throws SQLException
    {
        try (Statement statement = duckdb.createStatement()) {
            statement.execute("CREATE SCHEMA tiny");
            statement.execute("CREATE TABLE clicks (event_id BIGINT, custkey BIGINT, amount DOUBLE, event_time TIMESTAMP)");
        }
        for (TpchTable<?> table : List.of(TpchTable.CUSTOMER, TpchTable.NATION, TpchTable.ORDERS)) {
            DuckDbTpch.loadTable(duckdb, "memory", "tiny", table, 0.01);
        }
        try (PreparedStatement insert = duckdb.prepareStatement("INSERT INTO clicks VALUES (?, ?, ?, CAST(? AS TIMESTAMP))")) {
            for (int i = 0; i < EVENTS; i++) {
                insert.setLong(1, i);
                insert.setLong(2, (i * 7L) % 1500 + 1);
                insert.setDouble(3, (i % 50) * 1.25);
                insert.setString(4, "2026-01-01 00:%02d:%02d.%03d".formatted(i / 60 % 60, i % 60, i % 1000));
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static List<String> strings(ResultSet result, String column)
            throws SQLException
    {
        List<String> values = new ArrayList<>();
        try (result) {
            while (result.next()) {
                values.add(result.getString(column));
            }
        }
        return values;
    }

    /**
     * Issue 25: the connection password of a runtime catalog is in no file of the data directory
     * (the metadata store's files, the audit log, keys, ...), nor in what SHOW CATALOGS, the
     * query history or the audit table show.
     */
    @Test
    void catalogPasswordsAreNowhereInPlainText()
            throws Exception
    {
        String secret = postgres.password();
        assertThat(secret).startsWith("pw-").hasSizeGreaterThan(20);
        List<Path> scanned = new ArrayList<>();
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(dataDirectory)) {
            for (Path file : files.filter(java.nio.file.Files::isRegularFile).toList()) {
                scanned.add(file);
                byte[] bytes = java.nio.file.Files.readAllBytes(file);
                assertThat(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1)).as(file.toString()).doesNotContain(secret);
            }
        }
        assertThat(scanned).as("the metadata store and the audit log were among the files")
                .anySatisfy(file -> assertThat(file.toString()).contains("metadata"))
                .anySatisfy(file -> assertThat(file.toString()).contains("audit"));
        try (Connection connection = connect(server); Statement statement = connection.createStatement()) {
            for (String sql : List.of("SHOW CATALOGS", "SELECT query FROM system.runtime.queries", "SELECT statement FROM system.audit.events WHERE statement IS NOT NULL")) {
                List<List<Object>> rows = new ArrayList<>();
                try (ResultSet result = statement.executeQuery(sql)) {
                    rows.addAll(ResultRows.drain(result));
                }
                assertThat(rows).as(sql).isNotEmpty();
                assertThat(rows.toString()).as(sql).doesNotContain(secret);
            }
        }
    }

    private static OntulServer start()
            throws IOException
    {
        return OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(ADMIN_PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
    }

    private static Connection connect(OntulServer target)
            throws SQLException
    {
        return DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + target.port() + "/?useEncryption=false&user=admin&password=" + ADMIN_PASSWORD);
    }
}
