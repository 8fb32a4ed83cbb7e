package io.ontul.server.streaming;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.catalog.jdbc.testing.TestingPostgres;
import io.ontul.catalog.kafka.testing.EmbeddedKafka;
import io.ontul.engine.stream.checkpoint.CrashPoints;
import io.ontul.server.testing.ServerProcess;

/**
 * Exactly-once across real process deaths: the server runs as its own OS process and is killed
 * with SIGKILL at random moments and halted at each injected crash point, while two streaming
 * jobs of parallelism 4 (4 source tasks, a hash shuffle, 4 window tasks) aggregate 100,000
 * out-of-order events over 8 Kafka partitions into 10 s windows, one into Iceberg, one into
 * PostgreSQL (append mode, so a duplicate would be an extra row); in the middle of the run both
 * are rescaled to 2, later to 3 (STOP, ALTER STREAMING JOB, START). After an event that closes
 * every window, both tables hold exactly the windows computed here from the same events, which
 * are also what the batch query over the Kafka table returns.
 */
class StreamingCrashIT
{
    private static final int EVENTS = 100_000;
    private static final int CHUNK = 10_000;
    private static final int PARTITIONS = 8;
    private static final String TOPIC = "crash_events";
    private static final String COLUMNS = "(event_id BIGINT, category VARCHAR, amount DOUBLE, event_time TIMESTAMP(3))";
    private static final String SUMMARY_COLUMNS = "(window_start TIMESTAMP(3), window_end TIMESTAMP(3), category VARCHAR, total DOUBLE, cnt BIGINT)";
    private static final String WINDOW_QUERY = "SELECT window_start, window_end, category, sum(amount) AS total, count(*) AS cnt "
            + "FROM TABLE(TUMBLE(TABLE kafka.\"default\"." + TOPIC + ", DESCRIPTOR(event_time), INTERVAL '10' SECOND)) WHERE amount > 100 GROUP BY window_start, window_end, category";
    private static final LocalDateTime EPOCH = LocalDateTime.of(2026, 1, 1, 0, 0);
    private static final DateTimeFormatter EVENT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS");

    private static EmbeddedKafka kafka;
    private static TestingPostgres postgres;

    @BeforeAll
    static void setUp()
    {
        kafka = EmbeddedKafka.start();
        postgres = TestingPostgres.start();
    }

    @AfterAll
    static void tearDown()
    {
        if (kafka != null) {
            kafka.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void windowsExactlyOnceAcrossKills(@TempDir Path directory)
            throws Exception
    {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        System.out.println("StreamingCrashIT seed " + seed);
        Path data = directory.resolve("data");
        Files.createDirectories(data);
        kafka.createTopic(TOPIC, PARTITIONS);
        postgres.execute("CREATE SCHEMA crash",
                "CREATE TABLE crash.window_summary (window_start TIMESTAMP(3), window_end TIMESTAMP(3), category VARCHAR(10), total DOUBLE PRECISION, cnt BIGINT)");

        int starts = 0;
        ServerProcess server = ServerProcess.start(data, directory.resolve("server-" + starts++ + ".log"), List.of());
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE CATALOG kafka USING kafka WITH (\"kafka.bootstrap-servers\" = '" + kafka.bootstrapServers() + "')");
            statement.execute("CREATE CATALOG iceberg USING iceberg");
            statement.execute("CREATE CATALOG pg USING jdbc WITH (\"connection-url\" = '" + postgres.jdbcUrl() + "', \"connection-user\" = '" + postgres.user()
                    + "', \"connection-password\" = '" + postgres.password() + "')");
            statement.execute("CREATE TABLE kafka.\"default\"." + TOPIC + " " + COLUMNS + " WITH ('topic' = '" + TOPIC + "', 'format' = 'json', "
                    + "'scan.startup.mode' = 'earliest-offset', 'watermark.column' = 'event_time', 'watermark.delay' = '5s')");
            statement.execute("CREATE SCHEMA iceberg.lake");
            statement.execute("CREATE TABLE iceberg.lake.window_summary " + SUMMARY_COLUMNS);
            statement.execute("CREATE STREAMING JOB to_iceberg WITH ('checkpoint.interval' = '300ms', 'parallelism' = '4') AS INSERT INTO iceberg.lake.window_summary " + WINDOW_QUERY);
            statement.execute("CREATE STREAMING JOB to_postgres WITH ('checkpoint.interval' = '300ms', 'parallelism' = '4') AS INSERT INTO pg.crash.window_summary " + WINDOW_QUERY);
        }

        // each round produces a chunk, then the server dies: halted at an injected point, or killed at a random moment
        List<String> deaths = List.of(
                CrashPoints.AFTER_PREPARE_COMMIT, "kill", CrashPoints.BEFORE_CHECKPOINT_COMPLETE, "kill", CrashPoints.AFTER_CHECKPOINT_COMPLETE, "kill",
                CrashPoints.AFTER_SINK_COMMIT, "kill", "kill");
        // the jobs' parallelism from the round of that index on: 4, then 2, then 3
        Map<Integer, Integer> rescales = Map.of(3, 2, 6, 3);
        int produced = 0;
        for (int round = 0; round < deaths.size(); round++) {
            String death = deaths.get(round);
            if (rescales.containsKey(round)) {
                rescale(server, rescales.get(round));
            }
            produce(produced, CHUNK);
            produced += CHUNK;
            if (death.equals("kill")) {
                sleep(300 + random.nextInt(2500));
                assertRunning(server);
                server.kill();
                assertThat(server.isAlive()).isFalse();
                server = ServerProcess.start(data, directory.resolve("server-" + starts++ + ".log"), List.of());
            }
            else {
                // the next start halts when a job reaches the point, with windows open and rows pending
                server.kill();
                ServerProcess halting = ServerProcess.start(data, directory.resolve("server-" + starts++ + ".log"), List.of(CrashPoints.PROPERTY + "=" + death + CrashPoints.HALT));
                assertThat(halting.awaitExit(Duration.ofSeconds(120))).as("exit code of the halted server").isEqualTo(137);
                assertThat(halting.output()).contains("halting at streaming crash point " + death);
                server = ServerProcess.start(data, directory.resolve("server-" + starts++ + ".log"), List.of());
            }
        }
        produce(produced, EVENTS - produced);
        List<ProducerRecord<String, String>> closing = new ArrayList<>();
        for (int partition = 0; partition < PARTITIONS; partition++) {
            closing.add(new ProducerRecord<>(TOPIC, partition, null, event(-1 - partition, 0.5, 100_000_000)));
        }
        kafka.produce(closing);

        List<List<Object>> expected = windowsComputedHere();
        try (ServerProcess last = server; Connection connection = last.connect(); Statement statement = connection.createStatement()) {
            await(() -> count(statement, "iceberg.lake.window_summary") >= expected.size() && postgres.query("SELECT count(*) FROM crash.window_summary").get(0).get(0).equals((long) expected.size()));
            try (ResultSet jobs = statement.executeQuery("SHOW STREAMING JOBS")) {
                while (jobs.next()) {
                    assertThat(jobs.getString("state")).as(jobs.getString("name")).isEqualTo("RUNNING");
                    assertThat(jobs.getLong("records_late")).as(jobs.getString("name")).isZero();
                    assertThat(jobs.getString("last_error")).as(jobs.getString("name")).isNull();
                }
            }
            statement.execute("STOP STREAMING JOB to_iceberg");
            statement.execute("STOP STREAMING JOB to_postgres");
            assertThat(rows(statement, "SELECT * FROM iceberg.lake.window_summary ORDER BY window_start, category")).isEqualTo(expected);
            assertThat(rows(statement, WINDOW_QUERY + " ORDER BY window_start, category")).as("the batch query over the Kafka table").isEqualTo(expected);
            List<List<Object>> inPostgres = new ArrayList<>();
            try (Connection pg = postgres.connect(); Statement pgStatement = pg.createStatement();
                    ResultSet result = pgStatement.executeQuery("SELECT * FROM crash.window_summary ORDER BY window_start, category")) {
                while (result.next()) {
                    inPostgres.add(List.of(result.getTimestamp(1).toLocalDateTime(), result.getTimestamp(2).toLocalDateTime(), result.getString(3), result.getDouble(4), result.getLong(5)));
                }
            }
            assertThat(inPostgres).isEqualTo(expected);
        }
    }

    /** STOP, ALTER STREAMING JOB ... SET ('parallelism' = N), START for both jobs. */
    private static void rescale(ServerProcess server, int parallelism)
            throws SQLException
    {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            for (String job : List.of("to_iceberg", "to_postgres")) {
                statement.execute("STOP STREAMING JOB " + job);
                statement.execute("ALTER STREAMING JOB " + job + " SET ('parallelism' = '" + parallelism + "')");
                statement.execute("START STREAMING JOB " + job);
            }
            // the tasks start with the job's next attempt, just after START returns
            await(() -> count(statement, "system.runtime.stream_tasks WHERE job = 'to_iceberg' AND kind = 'window'") == parallelism);
        }
    }

    private static void assertRunning(ServerProcess server)
            throws SQLException
    {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement(); ResultSet jobs = statement.executeQuery("SHOW STREAMING JOBS")) {
            int count = 0;
            while (jobs.next()) {
                assertThat(jobs.getString("state")).as(jobs.getString("name")).isIn("RUNNING", "RESTARTING");
                count++;
            }
            assertThat(count).isEqualTo(2);
        }
    }

    private static long count(Statement statement, String table)
    {
        try (ResultSet result = statement.executeQuery("SELECT count(*) FROM " + table)) {
            result.next();
            return result.getLong(1);
        }
        catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static List<List<Object>> rows(Statement statement, String sql)
            throws SQLException
    {
        List<List<Object>> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                rows.add(List.of(result.getTimestamp(1).toLocalDateTime(), result.getTimestamp(2).toLocalDateTime(), result.getString(3), result.getDouble(4), result.getLong(5)));
            }
        }
        return rows;
    }

    private static double amount(int i)
    {
        return (i * 37 % 200) + 0.5;
    }

    /** Event time of event i: 10 ms apart, up to 3 s out of order (the table's delay is 5 s). */
    private static long eventMillis(int i)
    {
        return i * 10L - (i * 7919L % 3000);
    }

    private static void produce(int from, int count)
    {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            records.add(new ProducerRecord<>(TOPIC, i % PARTITIONS, null, event(i, amount(i), eventMillis(i))));
        }
        kafka.produce(records);
    }

    private static String event(long id, double amount, long millis)
    {
        return "{\"event_id\": %d, \"category\": \"c%d\", \"amount\": %s, \"event_time\": \"%s\"}"
                .formatted(id, Math.floorMod(id, 10), amount, EVENT_TIME.format(EPOCH.plus(Duration.ofMillis(millis))));
    }

    /** The windows of all events, computed here: (window_start, window_end, category, total, cnt) by start and category. */
    private static List<List<Object>> windowsComputedHere()
    {
        Map<List<Object>, double[]> windows = new TreeMap<>(Comparator.comparing((List<Object> key) -> (Long) key.get(0)).thenComparing(key -> (String) key.get(1)));
        for (int i = 0; i < EVENTS; i++) {
            if (amount(i) > 100) {
                double[] totals = windows.computeIfAbsent(List.of(Math.floorDiv(eventMillis(i), 10_000) * 10_000, "c" + i % 10), key -> new double[2]);
                totals[0] += amount(i);
                totals[1]++;
            }
        }
        List<List<Object>> rows = new ArrayList<>();
        windows.forEach((key, totals) -> {
            LocalDateTime start = EPOCH.plus(Duration.ofMillis((Long) key.get(0)));
            rows.add(List.of(start, start.plusSeconds(10), key.get(1), totals[0], (long) totals[1]));
        });
        return rows;
    }

    private static void await(BooleanSupplier condition)
    {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 3 minutes");
            }
            sleep(200);
        }
    }

    private static void sleep(long millis)
    {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
