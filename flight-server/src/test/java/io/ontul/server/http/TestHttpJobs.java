package io.ontul.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.ontul.catalog.kafka.testing.EmbeddedKafka;
import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;
import io.ontul.server.testing.HttpTestClient;
import io.ontul.server.testing.HttpTestClient.Response;

/**
 * Streaming jobs, catalogs, nodes, users and the OpenAPI document over the REST API, with a real
 * Kafka broker and Iceberg tables: a JSON job document becomes the same CREATE STREAMING JOB text
 * a user would write, and the job it creates writes the same windows as that statement's job and
 * as a batch query over the same topic.
 */
class TestHttpJobs
{
    private static final String PASSWORD = "jobs-admin-password";
    private static final DateTimeFormatter EVENT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
    private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
    private static final String SUMMARY = "(window_start TIMESTAMP(3), window_end TIMESTAMP(3), category VARCHAR, total BIGINT, cnt BIGINT)";
    /** What the document below translates into, with the job's name left open. */
    private static final String EXPECTED_SQL = "CREATE STREAMING JOB %s WITH ('checkpoint.interval' = '200ms', 'parallelism' = '2') "
            + "AS INSERT INTO iceberg.lake.%s SELECT window_start, window_end, category, SUM(amount) AS total, COUNT(*) AS cnt "
            + "FROM TABLE(TUMBLE(TABLE kafka.\"default\".orders, DESCRIPTOR(event_time), INTERVAL '10' SECOND)) WHERE amount > 100 "
            + "GROUP BY window_start, window_end, category";

    @TempDir
    static Path dataDirectory;

    private static EmbeddedKafka kafka;
    private static OntulServer server;
    private static HttpTestClient http;
    private static Optional<String> admin;
    private static Optional<String> ann;

    @BeforeAll
    static void start()
            throws Exception
    {
        kafka = EmbeddedKafka.start();
        server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
        http = HttpTestClient.onPort(server.httpPort());
        try (Connection connection = jdbc(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE USER ann PASSWORD 'ann-password'");
            statement.execute("CREATE CATALOG kafka USING kafka WITH (\"kafka.bootstrap-servers\" = '" + kafka.bootstrapServers() + "')");
            statement.execute("CREATE CATALOG iceberg USING iceberg");
            statement.execute("CREATE SCHEMA iceberg.lake");
        }
        admin = Optional.of(HttpTestClient.bearer(http.login("admin", PASSWORD)));
        ann = Optional.of(HttpTestClient.bearer(http.login("ann", "ann-password")));
    }

    @AfterAll
    static void stop()
    {
        if (server != null) {
            server.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    private static Connection jdbc()
            throws SQLException
    {
        return DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false&user=admin&password=" + PASSWORD);
    }

    private static String document(String name, String sink)
    {
        return """
                {"name": "%s", "type": "STREAMING",
                 "config": {"source.type": "kafka", "source.table": "kafka.default.orders",
                            "sink.type": "iceberg", "sink.tableName": "iceberg.lake.%s",
                            "checkpoint.interval": "200ms", "parallelism": "2"},
                 "operations": [{"type": "FILTER", "condition": "amount > 100"},
                                {"type": "WINDOW", "window": "TUMBLING(SIZE 10 SECONDS)", "timeColumn": "event_time"},
                                {"type": "GROUP_BY", "columns": ["category"]},
                                {"type": "AGG", "expressions": ["SUM(amount) AS total", "COUNT(*) AS cnt"]}]}
                """.formatted(name, sink);
    }

    /**
     * One planner: the same job created by SQL, by a REST job document, by the Java SDK (over
     * Flight SQL) and by the Python SDK (a real {@code python3} process over REST) is the same
     * CREATE STREAMING JOB text, and writes the same windows as a batch query over the topic.
     */
    @Test
    void theSameJobFromFourDoorsIsOneStatementAndWritesTheSameWindows()
            throws Exception
    {
        kafka.createTopic("orders", 2);
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            records.add(new ProducerRecord<>("orders", i % 2, null, event(i, i * 7 % 300, i * 100L)));
        }
        // one late-in-time event per partition closes every window before it
        records.add(new ProducerRecord<>("orders", 0, null, event(10_000, 1, 3_600_000)));
        records.add(new ProducerRecord<>("orders", 1, null, event(10_001, 1, 3_600_000)));
        kafka.produce(records);
        try (Connection connection = jdbc(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE kafka.\"default\".orders (event_id BIGINT, category VARCHAR, amount BIGINT, event_time TIMESTAMP(3)) "
                    + "WITH ('topic' = 'orders', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset', 'watermark.column' = 'event_time', "
                    + "'watermark.delay' = '0s', 'watermark.idle-timeout' = '30s')");
            for (String door : List.of("by_rest", "by_sql", "by_java", "by_python")) {
                statement.execute("CREATE TABLE iceberg.lake." + door + " " + SUMMARY);
            }

            Response created = http.post("/v1/jobs", admin, document("rest_job", "by_rest"));
            assertThat(created.status()).as(created.toString()).isEqualTo(201);
            assertThat(created.json().get("sql").asText()).isEqualTo(EXPECTED_SQL.formatted("rest_job", "by_rest"));
            assertThat(created.json().get("job").get("state").asText()).isEqualTo("RUNNING");
            assertThat(created.json().get("job").get("definition").asText()).isEqualTo(EXPECTED_SQL.formatted("rest_job", "by_rest"));
            // the same statement, typed by a user
            statement.execute(EXPECTED_SQL.formatted("sql_job", "by_sql"));
            // the Java SDK builds it and sends it over Flight SQL
            try (io.ontul.sdk.OntulSession session = io.ontul.sdk.OntulSession.builder().master("127.0.0.1", server.port()).user("admin", PASSWORD).build()) {
                io.ontul.sdk.stream.StreamBuilder job = session.streamSource(io.ontul.sdk.stream.Source.kafka("kafka.default.orders"))
                        .filter("amount > 100")
                        .window(io.ontul.sdk.stream.WindowSpec.tumbling(Duration.ofSeconds(10)), "event_time")
                        .groupBy("category")
                        .agg("SUM(amount) AS total", "COUNT(*) AS cnt")
                        .sink(io.ontul.sdk.stream.Sink.iceberg("iceberg.lake.by_java"))
                        .commitInterval(200)
                        .parallelism(2)
                        .name("java_job");
                assertThat(job.toSql()).isEqualTo(EXPECTED_SQL.formatted("java_job", "by_java"));
                assertThat(job.start()).isEqualTo("java_job");
                assertThat(session.job("java_job").state()).isEqualTo("RUNNING");
            }
            // the Python SDK sends a job document over REST
            assertThat(python("""
                    from ontul import OntulSession, WindowSpec
                    session = OntulSession("127.0.0.1", %d, user="admin", password="%s")
                    builder = (session.stream_source("kafka.default.orders").filter("amount > 100")
                               .window(WindowSpec.tumbling(seconds=10), "event_time").group_by("category")
                               .agg("SUM(amount) AS total", "COUNT(*) AS cnt").sink_iceberg("iceberg.lake.by_python")
                               .commit_interval(200).parallelism(2).name("python_job"))
                    name = builder.start()
                    print(builder.last_response["sql"])
                    print(session.job(name).status()["state"])
                    """.formatted(server.httpPort(), PASSWORD))).isEqualTo(List.of(EXPECTED_SQL.formatted("python_job", "by_python"), "RUNNING"));
            for (String job : List.of("rest_job", "sql_job", "java_job", "python_job")) {
                String sink = "by_" + job.substring(0, job.indexOf('_'));
                assertThat(http.get("/v1/jobs/" + job, admin).json().get("definition").asText()).isEqualTo(EXPECTED_SQL.formatted(job, sink));
            }

            String reference = "SELECT window_start, window_end, category, SUM(amount) AS total, COUNT(*) AS cnt "
                    + "FROM TABLE(TUMBLE(TABLE kafka.\"default\".orders, DESCRIPTOR(event_time), INTERVAL '10' SECOND)) WHERE amount > 100 "
                    + "AND event_time < TIMESTAMP '2026-01-01 01:00:00' GROUP BY window_start, window_end, category";
            List<String> expected = rows(statement, reference);
            assertThat(expected).hasSizeGreaterThan(20);
            for (String door : List.of("by_rest", "by_sql", "by_java", "by_python")) {
                await(() -> rows(statement, "SELECT * FROM iceberg.lake." + door).size() == expected.size());
                assertThat(rows(statement, "SELECT * FROM iceberg.lake." + door)).as(door).isEqualTo(expected);
            }
        }

        JsonNode jobs = http.get("/v1/jobs", admin).json().get("jobs");
        assertThat(jobs.findValuesAsText("name")).contains("rest_job", "sql_job", "java_job", "python_job");
        JsonNode job = http.get("/v1/jobs/rest_job", admin).json();
        assertThat(job.get("state").asText()).isEqualTo("RUNNING");
        assertThat(job.get("parallelism").asText()).isEqualTo("2");
        assertThat(job.get("tasks")).hasSize(4);
        assertThat(job.get("checkpoints").size()).isPositive();
        assertThat(job.get("checkpointHistory").size()).isPositive();
        assertThat(job.get("checkpointHistory").get(0).has("durationMillis")).isTrue();
        assertThat(job.get("partitionLags").toString()).isEqualTo("{\"0\":0,\"1\":0}");

        // ann may look but not touch
        Response refused = http.post("/v1/jobs/rest_job/stop", ann, "");
        assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
        Response stopped = http.post("/v1/jobs/rest_job/stop", admin, "");
        assertThat(stopped.status()).as(stopped.toString()).isEqualTo(200);
        assertThat(stopped.json().get("state").asText()).isEqualTo("STOPPED");
        assertThat(http.post("/v1/jobs/rest_job/start", admin, "").json().get("state").asText()).isEqualTo("RUNNING");
        assertThat(http.delete("/v1/jobs/rest_job", admin).status()).isEqualTo(200);
        Response gone = http.get("/v1/jobs/rest_job", admin);
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.errorMessage()).contains("Streaming job 'rest_job' does not exist");
        for (String other : List.of("sql_job", "java_job", "python_job")) {
            assertThat(http.delete("/v1/jobs/" + other, admin).status()).isEqualTo(200);
        }
    }

    @Test
    void aMalformedDocumentNamesTheField()
    {
        String valid = document("bad_job", "nowhere");
        Map<String, String> cases = Map.ofEntries(
                Map.entry("not json", "The body is not JSON"),
                Map.entry("{\"type\": \"STREAMING\"}", "Field 'name' is required"),
                Map.entry(valid.replace("\"STREAMING\"", "\"BATCH\""), "Field 'type' must be STREAMING"),
                Map.entry("{\"name\": \"j\", \"type\": \"STREAMING\"}", "Field 'config' is required"),
                Map.entry(valid.replace("\"source.type\": \"kafka\", ", ""), "Field 'config.source.type' is required"),
                Map.entry(valid.replace("\"source.type\": \"kafka\"", "\"source.type\": \"file\""), "Field 'config.source.type' must be kafka"),
                Map.entry(valid.replace("\"source.table\": \"kafka.default.orders\"", "\"source.kafka.topic\": \"orders\""), "Field 'config.source.kafka.topic' is not taken"),
                Map.entry(valid.replace("\"source.table\": \"kafka.default.orders\"", "\"source.table\": \"orders\""), "Field 'config.source.table' must name a table as catalog.schema.table"),
                Map.entry(valid.replace("\"sink.type\": \"iceberg\", ", ""), "Field 'config.sink.type' is required"),
                Map.entry(valid.replace("\"sink.type\": \"iceberg\"", "\"sink.type\": \"csv\""), "Field 'config.sink.type' must be iceberg, jdbc or kafka"),
                Map.entry(valid.replace("\"sink.tableName\": \"iceberg.lake.nowhere\",", ""), "Field 'config.sink.tableName' is required"),
                Map.entry(valid.replace("\"FILTER\", \"condition\"", "\"FILTER\", \"where\""), "Field 'operations[0].condition' is required"),
                Map.entry(valid.replace("TUMBLING(SIZE 10 SECONDS)", "TUMBLING(10s)"), "Field 'operations[1].window': must be TUMBLING(SIZE n UNIT)"),
                Map.entry(valid.replace("TUMBLING(SIZE 10 SECONDS)", "TUMBLING(SIZE 10 FORTNIGHTS)"), "Field 'operations[1].window': unknown unit 'FORTNIGHTS'"),
                Map.entry(valid.replace(", \"timeColumn\": \"event_time\"", ""), "Field 'operations[1].timeColumn' is required"),
                Map.entry(valid.replace("\"columns\": [\"category\"]", "\"columns\": []"), "Field 'operations[2].columns' must be a non-empty array"),
                Map.entry(valid.replace("\"type\": \"AGG\"", "\"type\": \"SORT\""), "Field 'operations[3].type' must be FILTER, WINDOW, GROUP_BY, AGG or SELECT"),
                Map.entry(valid.replace("\"operations\"", "\"steps\""), "Unknown field 'steps'"));
        cases.forEach((body, message) -> {
            Response response = http.post("/v1/jobs", admin, body);
            assertThat(response.status()).as(body).isEqualTo(400);
            assertThat(response.errorMessage()).as(body).startsWith(message);
        });
        // what the planner refuses comes back as the statement's own error: the sink table does not exist
        Response planner = http.post("/v1/jobs", admin, valid);
        assertThat(planner.status()).isEqualTo(404);
        assertThat(planner.errorMessage()).startsWith("line 1:105: Table 'iceberg.lake.nowhere' does not exist");
        assertThat(http.get("/v1/jobs", admin).json().get("jobs").findValuesAsText("name")).doesNotContain("bad_job");
    }

    @Test
    void catalogsNodesUsersAndInfo()
            throws Exception
    {
        assertThat(http.get("/v1/catalogs", admin).json().get("catalogs").toString()).contains("\"tpch\"", "\"iceberg\"", "\"memory\"");
        assertThat(http.get("/v1/catalogs/tpch/schemas", admin).json().get("schemas").toString()).contains("\"tiny\"");
        assertThat(http.get("/v1/catalogs/tpch/schemas/tiny/tables", admin).json().get("tables").toString()).contains("\"nation\"", "\"lineitem\"");
        JsonNode columns = http.get("/v1/catalogs/tpch/schemas/tiny/tables/nation", admin).json().get("columns");
        assertThat(columns.toString()).contains("n_nationkey", "n_name");
        Response missing = http.get("/v1/catalogs/nope/schemas", admin);
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorMessage()).contains("nope");

        JsonNode nodes = http.get("/v1/nodes", admin).json().get("nodes");
        assertThat(nodes).hasSize(1);
        JsonNode users = http.get("/v1/users", admin).json().get("users");
        assertThat(users.toString()).contains("\"admin\"", "\"ann\"");
        assertThat(http.get("/v1/users", ann).status()).isEqualTo(403);

        JsonNode info = http.get("/v1/info", ann).json();
        assertThat(info.get("user").asText()).isEqualTo("ann");
        assertThat(info.get("admin").asBoolean()).isFalse();
        assertThat(info.get("memoryLimitBytes").asLong()).isPositive();
        assertThat(info.has("jobsByState")).isTrue();
    }

    @Test
    void theOpenApiDocumentDescribesEveryRoute()
    {
        Response document = http.get("/v1/openapi.json", Optional.empty());
        assertThat(document.status()).isEqualTo(200);
        JsonNode root = document.json();
        assertThat(root.get("openapi").asText()).startsWith("3.");
        TreeSet<String> described = new TreeSet<>();
        root.get("paths").fields().forEachRemaining(path -> path.getValue().fieldNames()
                .forEachRemaining(method -> described.add(method.toUpperCase(java.util.Locale.ROOT) + " " + path.getKey())));
        assertThat(described).isEqualTo(new TreeSet<>(server.httpEndpoints()));
    }

    /** Runs a Python script with the SDK of clients/python on its path; returns its output lines. */
    private static List<String> python(String script)
            throws Exception
    {
        Path sdk = Path.of("..", "clients", "python").toAbsolutePath().normalize();
        ProcessBuilder builder = new ProcessBuilder("python3", "-c", script).redirectErrorStream(true);
        builder.environment().put("PYTHONPATH", sdk.toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output.lines().toList();
    }

    private static String event(long id, long amount, long millis)
    {
        return "{\"event_id\": %d, \"category\": \"c%d\", \"amount\": %d, \"event_time\": \"%s\"}"
                .formatted(id, id % 5, amount, EVENT_TIME.format(EPOCH.plus(Duration.ofMillis(millis))));
    }

    private static List<String> rows(Statement statement, String query)
    {
        List<String> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery("SELECT * FROM (" + query + ") ORDER BY 1, 2, 3")) {
            while (result.next()) {
                rows.add(result.getString(1) + "|" + result.getString(2) + "|" + result.getString(3) + "|" + result.getLong(4) + "|" + result.getLong(5));
            }
        }
        catch (SQLException e) {
            throw new AssertionError(e);
        }
        return rows;
    }

    private static void await(BooleanSupplier condition)
            throws InterruptedException
    {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 90 s");
            }
            Thread.sleep(200);
        }
    }
}
