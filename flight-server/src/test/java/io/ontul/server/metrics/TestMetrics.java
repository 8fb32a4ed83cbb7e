package io.ontul.server.metrics;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.catalog.kafka.testing.EmbeddedKafka;
import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;
import io.ontul.server.testing.HttpTestClient;
import io.ontul.server.testing.HttpTestClient.Response;

/**
 * {@code GET /metrics} over a real socket: the Prometheus text that Prometheus's own parser
 * ({@code promtool check metrics}, Debian package {@code prometheus}, which {@code .ci/run}
 * installs) accepts, with figures that move as statements run and fail and as a streaming job
 * reads a real Kafka topic into Iceberg.
 */
class TestMetrics
{
    private static final String PASSWORD = "metrics-admin-password";

    @TempDir
    static Path dataDirectory;

    private static EmbeddedKafka kafka;
    private static OntulServer server;
    private static HttpTestClient http;
    private static String token;

    @BeforeAll
    static void start()
            throws Exception
    {
        kafka = EmbeddedKafka.start();
        server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
        http = HttpTestClient.onPort(server.httpPort());
        token = http.login("admin", PASSWORD);
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

    private static Connection connect()
            throws SQLException
    {
        return DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false&user=admin&password=" + PASSWORD);
    }

    private static String scrape()
    {
        Response response = http.get("/metrics", Optional.of(HttpTestClient.bearer(token)));
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(response.header("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
        return response.text();
    }

    @Test
    void statementFiguresMoveAsStatementsRunAndFail()
            throws Exception
    {
        String before = scrape();
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (int i = 0; i < 3; i++) {
                try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM tpch.tiny.nation")) {
                    assertThat(rows.next()).isTrue();
                    // read to the end: a result set closed before its stream ended stops the stream, and the
                    // statement may then end CANCELLED rather than FINISHED, depending on which comes first
                    assertThat(rows.next()).isFalse();
                }
            }
            assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM tpch.tiny.no_such_table")).isInstanceOf(SQLException.class);
        }
        String after = scrape();
        assertThat(value(after, "ontul_queries_started_total", "") - value(before, "ontul_queries_started_total", "")).isGreaterThanOrEqualTo(4);
        assertThat(value(after, "ontul_queries_failed_total", "") - value(before, "ontul_queries_failed_total", "")).isGreaterThanOrEqualTo(1);
        assertThat(value(after, "ontul_query_duration_seconds_count", "state=\"finished\"") - value(before, "ontul_query_duration_seconds_count", "state=\"finished\""))
                .isGreaterThanOrEqualTo(3);
        // a histogram with buckets, as Prometheus conventions name them
        assertThat(after).contains("ontul_query_duration_seconds_bucket{state=\"finished\",le=\"0.1\"}");
        assertThat(value(after, "ontul_memory_limit_bytes", "")).isPositive();
        assertThat(after).contains("ontul_spill_written_bytes_total", "ontul_spill_read_bytes_total", "ontul_spill_files_total", "ontul_queries_running",
                "jvm_memory_used_bytes", "process_cpu_usage", "process_uptime_seconds");
        assertAcceptedByPromtool(after);
    }

    @Test
    void aStreamingJobHasSeriesOfItsOwn()
            throws Exception
    {
        kafka.createTopic("metered", 2);
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            records.add(new ProducerRecord<>("metered", i % 2, null, "{\"id\": %d, \"amount\": %d}".formatted(i, i)));
        }
        kafka.produce(records);
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE CATALOG kafka USING kafka WITH (\"kafka.bootstrap-servers\" = '" + kafka.bootstrapServers() + "')");
            statement.execute("CREATE CATALOG iceberg USING iceberg");
            statement.execute("CREATE TABLE kafka.\"default\".metered (id BIGINT, amount BIGINT) WITH ('topic' = 'metered', 'format' = 'json')");
            statement.execute("CREATE SCHEMA iceberg.lake");
            statement.execute("CREATE TABLE iceberg.lake.metered (id BIGINT, amount BIGINT)");
            statement.execute("CREATE STREAMING JOB metered_job WITH ('checkpoint.interval' = '100ms') AS INSERT INTO iceberg.lake.metered "
                    + "SELECT * FROM kafka.\"default\".metered WHERE amount >= 50");
            String job = "job=\"metered_job\"";
            // rows reach the table with a checkpoint: the figures are at their end by then
            await(() -> count(statement, "SELECT count(*) FROM iceberg.lake.metered") == 150);
            String text = scrape();
            assertThat(value(text, "ontul_streaming_job_records_in_total", job)).isEqualTo(200);
            assertThat(value(text, "ontul_streaming_job_records_out_total", job)).isEqualTo(150);
            assertThat(value(text, "ontul_streaming_job_checkpoints_completed_total", job)).isPositive();
            assertThat(value(text, "ontul_streaming_job_checkpoint_duration_seconds_count", job)).isPositive();
            // the lag is asked of the broker every few seconds: 200 at first, 0 once all is read
            await(() -> value(scrape(), "ontul_streaming_job_source_lag_records", job) == 0);
            String partitions = scrape();
            assertThat(value(partitions, "ontul_streaming_job_partition_lag_records", job + ",partition=\"0\"")).isZero();
            assertThat(value(partitions, "ontul_streaming_job_partition_lag_records", job + ",partition=\"1\"")).isZero();
            assertThat(value(text, "ontul_streaming_job_running", job)).isEqualTo(1);
            assertThat(value(text, "ontul_streaming_jobs", "state=\"running\"")).isEqualTo(1);
            assertThat(value(text, "ontul_streaming_job_restarts_total", job)).isZero();
            assertAcceptedByPromtool(text);

            statement.execute("STOP STREAMING JOB metered_job");
            assertThat(value(scrape(), "ontul_streaming_job_running", job)).isZero();
            statement.execute("DROP STREAMING JOB metered_job");
            assertThat(scrape()).doesNotContain(job);
        }
    }

    private static long count(Statement statement, String sql)
    {
        try (ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
        catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** The value of the sample {@code name} whose labels contain {@code labels}; fails when there is none. */
    static double value(String text, String name, String labels)
    {
        return find(text, name, labels).orElseThrow(() -> new AssertionError("no sample " + name + "{" + labels + "} in\n" + text));
    }

    private static OptionalDouble find(String text, String name, String labels)
    {
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || !(line.startsWith(name + " ") || line.startsWith(name + "{"))) {
                continue;
            }
            String series = line.substring(0, line.lastIndexOf(' '));
            if (series.contains(labels)) {
                return OptionalDouble.of(Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
            }
        }
        return OptionalDouble.empty();
    }

    /** Prometheus's own parser and linter must accept the text. */
    static void assertAcceptedByPromtool(String text)
            throws Exception
    {
        Path promtool = Path.of("/usr/bin/promtool");
        assertThat(Files.isExecutable(promtool)).as("promtool (Debian package prometheus; bash .ci/run installs it)").isTrue();
        Process process = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
        try (OutputStream input = process.getOutputStream()) {
            input.write(text.getBytes(UTF_8));
        }
        String output = new String(process.getInputStream().readAllBytes(), UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("promtool check metrics said:\n" + output).isZero();
    }

    private static void await(BooleanSupplier condition)
            throws InterruptedException
    {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 60 s");
            }
            Thread.sleep(100);
        }
    }
}
