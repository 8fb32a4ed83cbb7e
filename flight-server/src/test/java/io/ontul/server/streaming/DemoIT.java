package io.ontul.server.streaming;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.server.OntulMain;
import io.ontul.server.cli.CommandEnvironment;
import io.ontul.server.testing.ServerProcess;

/**
 * The README's "try it in two minutes": {@code ontul start --with-kafka} (as its own process,
 * its broker on a free port set in {@code ontul.properties}) and {@code ontul demo} produce fresh
 * windows in {@code iceberg.analytics.event_summary}; those windows are what the same windowed
 * query returns as a batch query over the Kafka table.
 */
class DemoIT
{
    private static final String WINDOWS = "SELECT window_start, window_end, category, SUM(amount) AS total, COUNT(*) AS cnt "
            + "FROM TABLE(TUMBLE(TABLE kafka.\"default\".user_events, DESCRIPTOR(event_time), INTERVAL '10' SECOND)) "
            + "WHERE amount > 100 GROUP BY window_start, window_end, category";

    @Test
    void demoWritesWindowsTheBatchQueryAgreesWith(@TempDir Path directory)
            throws Exception
    {
        int kafkaPort = ServerProcess.freePort();
        Path conf = Files.createDirectories(directory.resolve("conf"));
        Files.writeString(conf.resolve("ontul.properties"), "ontul.kafka.embedded.port=" + kafkaPort + "\n");
        try (ServerProcess server = ServerProcess.start(directory.resolve("data"), directory.resolve("server.log"), List.of(), List.of("--with-kafka", "--conf", conf.toString()))) {
            assertThat(server.output()).contains("Kafka broker on 127.0.0.1:" + kafkaPort + " registered as catalog 'kafka'");
            ByteArrayOutputStream output = new ByteArrayOutputStream();
            ByteArrayOutputStream error = new ByteArrayOutputStream();
            CommandEnvironment environment = new CommandEnvironment(new ByteArrayInputStream(new byte[0]), output, new PrintStream(error, true, UTF_8),
                    Map.of("ONTUL_PASSWORD", ServerProcess.PASSWORD), false);
            int exitCode = new OntulMain(environment, conf).run("demo", "--server", "127.0.0.1:" + server.port(), "--kafka", "127.0.0.1:" + kafkaPort, "--rate", "400", "--duration", "25");
            assertThat(exitCode).as(() -> error.toString(UTF_8)).isZero();
            assertThat(output.toString(UTF_8)).contains("Streaming job realtime_agg reads topic user-events");
            Matcher produced = Pattern.compile("Produced (\\d+) events\\s*$").matcher(output.toString(UTF_8));
            assertThat(produced.find()).as(() -> output.toString(UTF_8)).isTrue();
            long events = Long.parseLong(produced.group(1));

            try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
                long deadline = System.nanoTime() + 90_000_000_000L;
                List<List<Object>> written = List.of();
                while (written.size() < 16 && System.nanoTime() < deadline) {
                    Thread.sleep(1000);
                    written = rows(statement, "SELECT * FROM iceberg.analytics.event_summary ORDER BY window_start, category");
                }
                assertThat(written).as("two 10 s windows of 8 categories").hasSizeGreaterThanOrEqualTo(16);
                List<List<Object>> batch = rows(statement, "SELECT * FROM (" + WINDOWS + ") WHERE window_end <= (SELECT max(window_end) FROM iceberg.analytics.event_summary) "
                        + "ORDER BY window_start, category");
                assertThat(written).isEqualTo(batch);
                try (ResultSet jobs = statement.executeQuery("SHOW STREAMING JOBS")) {
                    assertThat(jobs.next()).isTrue();
                    assertThat(jobs.getString("name")).isEqualTo("realtime_agg");
                    assertThat(jobs.getString("state")).isEqualTo("RUNNING");
                    assertThat(jobs.getLong("records_in")).isEqualTo(events);
                }
            }
        }
    }

    private static List<List<Object>> rows(Statement statement, String sql)
            throws SQLException
    {
        List<List<Object>> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                // sums of the same rows may differ in the last bits with the order of additions
                rows.add(List.of(result.getTimestamp(1).toLocalDateTime(), result.getTimestamp(2).toLocalDateTime(), result.getString(3),
                        Math.round(result.getDouble(4) * 100) / 100.0, result.getLong(5)));
            }
        }
        return rows;
    }
}
