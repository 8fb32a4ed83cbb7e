package io.ontul.server.streaming;

import static io.ontul.server.streaming.CrashTestEvents.CHUNK;
import static io.ontul.server.streaming.CrashTestEvents.EVENTS;
import static io.ontul.server.streaming.CrashTestEvents.PARTITIONS;
import static io.ontul.server.streaming.CrashTestEvents.SUMMARY_COLUMNS;
import static io.ontul.server.streaming.CrashTestEvents.TOPIC;
import static io.ontul.server.streaming.CrashTestEvents.WINDOW_QUERY;
import static io.ontul.server.streaming.CrashTestEvents.await;
import static io.ontul.server.streaming.CrashTestEvents.count;
import static io.ontul.server.streaming.CrashTestEvents.createKafkaTable;
import static io.ontul.server.streaming.CrashTestEvents.produce;
import static io.ontul.server.streaming.CrashTestEvents.produceClosingEvents;
import static io.ontul.server.streaming.CrashTestEvents.rows;
import static io.ontul.server.streaming.CrashTestEvents.sleep;
import static io.ontul.server.streaming.CrashTestEvents.windowsComputedHere;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;

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
            statement.execute(createKafkaTable());
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
            produce(kafka, produced, CHUNK);
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
        produce(kafka, produced, EVENTS - produced);
        produceClosingEvents(kafka);

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
            assertThat(rows(postgres, "SELECT * FROM crash.window_summary ORDER BY window_start, category")).isEqualTo(expected);
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

}
