package io.ontul.server.streaming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.catalog.kafka.testing.EmbeddedKafka;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.stream.checkpoint.CrashPoints;
import io.ontul.engine.stream.job.StreamingJobManager;
import io.ontul.engine.testing.ResultRows;
import io.ontul.server.OntulServer;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Streaming jobs end to end on a real Kafka broker (in-process KRaft) and Iceberg tables on local
 * disk: a stateless job yields the rows the same INSERT gives as a batch statement; crashes at
 * the injected points and abrupt engine closes neither lose nor duplicate a row; the lifecycle
 * statements and their errors.
 */
class TestStreamingJobs
{
    private static final String COLUMNS = "(event_id BIGINT, category VARCHAR, amount DOUBLE, event_time TIMESTAMP(3))";
    private static final String SUMMARY_COLUMNS = "(window_start TIMESTAMP(3), window_end TIMESTAMP(3), category VARCHAR, total DOUBLE, cnt BIGINT)";
    /** The example job: 10 s tumbling SUM/COUNT by category of the events above 100, over the Kafka table {@code %s}. */
    private static final String WINDOW_QUERY = "SELECT window_start, window_end, category, sum(amount) AS total, count(*) AS cnt "
            + "FROM TABLE(TUMBLE(TABLE kafka.\"default\".%s, DESCRIPTOR(event_time), INTERVAL '10' SECOND)) WHERE amount > 100 GROUP BY window_start, window_end, category";
    private static final LocalDateTime EPOCH = LocalDateTime.of(2026, 1, 1, 0, 0);
    private static final DateTimeFormatter EVENT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS");
    private static final int RECORDS_LATE = 6;
    private static final int SOURCE_LAG = 7;
    private static final int WATERMARK = 8;
    private static final int SPILLED_BYTES = 9;
    private static final int LAST_CHECKPOINT_BYTES = 13;
    private static final int LAST_ERROR = 14;

    private static EmbeddedKafka kafka;

    @BeforeAll
    static void setUp()
    {
        kafka = EmbeddedKafka.start();
    }

    @AfterAll
    static void tearDown()
    {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void jobWritesWhatTheBatchInsertWrites(@TempDir Path dataDirectory)
    {
        kafka.createTopic("unified", 4);
        produce("unified", 0, 3000);
        // bad input: not JSON, wrongly typed fields (rejected and counted), missing fields (NULL)
        kafka.produce(List.of(
                new ProducerRecord<>("unified", 2, null, "{not json"),
                new ProducerRecord<>("unified", 1, null, "{\"event_id\": \"seven\", \"category\": \"c1\", \"amount\": 500.5, \"event_time\": \"2026-01-01T00:00:01.000\"}"),
                new ProducerRecord<>("unified", 0, null, "{\"event_id\": 90001, \"category\": \"c1\", \"amount\": \"lots\"}"),
                new ProducerRecord<>("unified", 3, null, "{\"event_id\": 90002, \"category\": \"c2\", \"amount\": 700.5}"),
                new ProducerRecord<>("unified", 3, null, "{\"event_id\": 90003}")));
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            createTables(session, "unified", "unified");
            run(session, "CREATE TABLE iceberg.lake.unified_batch " + COLUMNS);
            run(session, "INSERT INTO iceberg.lake.unified_batch SELECT * FROM kafka.\"default\".unified WHERE amount > 100");
            assertError(session, "CREATE STREAMING JOB unified_job WITH ('rejects.table' = 'iceberg.lake.unified_rejects') AS INSERT INTO iceberg.lake.unified "
                    + "SELECT event_id, category, amount, event_time FROM kafka.\"default\".unified", ErrorCode.NOT_FOUND,
                    "Rejects table 'iceberg.lake.unified_rejects' (option 'rejects.table') does not exist; create it with CREATE TABLE iceberg.lake.unified_rejects "
                            + "(job VARCHAR, source VARCHAR, payload VARCHAR, reason VARCHAR, rejected_at TIMESTAMP(3))");
            run(session, "CREATE TABLE iceberg.lake.unified_rejects (job VARCHAR, source VARCHAR, payload VARCHAR, reason VARCHAR, rejected_at TIMESTAMP(3))");
            assertThatThrownBy(() -> run(session, "CREATE STREAMING JOB unified_job WITH ('rejects.table' = 'iceberg.lake.unified_batch') AS INSERT INTO iceberg.lake.unified "
                    + "SELECT event_id, category, amount, event_time FROM kafka.\"default\".unified"))
                    .hasMessageStartingWith("Rejects table 'iceberg.lake.unified_batch' must have the columns (job VARCHAR, source VARCHAR, payload VARCHAR, reason VARCHAR, rejected_at TIMESTAMP(3))");
            run(session, "CREATE STREAMING JOB unified_job WITH ('checkpoint.interval' = '200ms', 'rejects.table' = 'iceberg.lake.unified_rejects') AS INSERT INTO iceberg.lake.unified "
                    + "SELECT event_id, category, amount, event_time FROM kafka.\"default\".unified WHERE amount > 100");
            long expected = (long) query(session, "SELECT count(*) FROM iceberg.lake.unified_batch").get(0).get(0);
            assertThat(expected).isGreaterThan(1000);
            await(() -> count(session, "iceberg.lake.unified") == expected);

            List<Object> job = query(session, "SHOW STREAMING JOBS").get(0);
            assertThat(job.get(0)).isEqualTo("unified_job");
            assertThat(job.get(1)).isEqualTo("RUNNING");
            assertThat(job.get(3)).as("records in: the decodable ones").isEqualTo(3002L);
            assertThat(job.get(5)).as("records rejected").isEqualTo(3L);
            assertThat(query(session, "SELECT event_id, category, amount, event_time FROM iceberg.lake.unified WHERE event_id >= 90000"))
                    .as("a missing field is NULL").isEqualTo(List.of(java.util.Arrays.asList(90002L, "c2", 700.5, null)));

            run(session, "STOP STREAMING JOB unified_job");
            List<List<Object>> rejected = query(session, "SELECT job, source, payload, reason, rejected_at IS NOT NULL FROM iceberg.lake.unified_rejects ORDER BY payload");
            assertThat(rejected).hasSize(3);
            assertThat(rejected).allSatisfy(row -> {
                assertThat(row.get(0)).isEqualTo("unified_job");
                assertThat((String) row.get(1)).matches("topic unified partition [0-3] offset \\d+");
                assertThat((String) row.get(3)).isNotBlank();
                assertThat(row.get(4)).isEqualTo(true);
            });
            assertThat(rejected.stream().map(row -> (String) row.get(2)).toList()).containsExactly(
                    "{\"event_id\": \"seven\", \"category\": \"c1\", \"amount\": 500.5, \"event_time\": \"2026-01-01T00:00:01.000\"}",
                    "{\"event_id\": 90001, \"category\": \"c1\", \"amount\": \"lots\"}",
                    "{not json");
            assertThat(query(session, "SELECT * FROM iceberg.lake.unified ORDER BY event_id"))
                    .isEqualTo(query(session, "SELECT * FROM iceberg.lake.unified_batch ORDER BY event_id"));
            run(session, "DROP STREAMING JOB unified_job");
        }
    }

    @Test
    void exactlyOnceAcrossCrashes(@TempDir Path dataDirectory)
    {
        kafka.createTopic("crashes", 4);
        int perRound = 5000;
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            createTables(session, "crashes", "crashes");
            run(session, "CREATE STREAMING JOB crash_job WITH ('checkpoint.interval' = '100ms') AS INSERT INTO iceberg.lake.crashes "
                    + "SELECT event_id, category, amount, event_time FROM kafka.\"default\".crashes WHERE amount > 100");
            produceAndCrash(session, perRound, 0, CrashPoints.AFTER_PREPARE_COMMIT);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            produceAndCrash(engine.createSession("admin"), perRound, 1, CrashPoints.AFTER_CHECKPOINT_COMPLETE);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            produceAndCrash(engine.createSession("admin"), perRound, 2, CrashPoints.AFTER_SINK_COMMIT);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            // closed abruptly between checkpoints, while it reads
            produceAndCrash(engine.createSession("admin"), perRound, 3, null);
        }
        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < 5 * perRound; i++) {
            if (amount(i) > 100) {
                expected.add((long) i);
            }
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            produce("crashes", 4 * perRound, perRound);
            await(() -> count(session, "iceberg.lake.crashes") >= expected.size());
            run(session, "STOP STREAMING JOB crash_job");
            List<Long> actual = query(session, "SELECT event_id FROM iceberg.lake.crashes ORDER BY event_id").stream()
                    .map(row -> (Long) row.get(0))
                    .toList();
            assertThat(actual).isEqualTo(expected);
            assertThat(query(session, "SELECT count(*) FROM iceberg.lake.crashes WHERE category IS NULL OR event_time IS NULL").get(0).get(0)).isEqualTo(0L);
        }
    }

    @Test
    void atLeastOnceLosesNothingWhenItDiesBetweenCommitAndCheckpoint(@TempDir Path dataDirectory)
    {
        kafka.createTopic("at_least_once", 4);
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            createTables(session, "at_least_once", "at_least_once");
            run(session, "CREATE STREAMING JOB alo_job WITH ('checkpoint.interval' = '100ms', 'delivery.guarantee' = 'at-least-once') AS INSERT INTO iceberg.lake.at_least_once "
                    + "SELECT * FROM kafka.\"default\".at_least_once");
            produce("at_least_once", 0, 1000);
            await(() -> count(session, "iceberg.lake.at_least_once") >= 1000);
            produce("at_least_once", 1000, 1000);
            // the sink committed the checkpoint's rows, the checkpoint itself is not stored
            crashAt(CrashPoints.BEFORE_CHECKPOINT_COMPLETE);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            produce("at_least_once", 2000, 1000);
            await(() -> (long) query(session, "SELECT count(DISTINCT event_id) FROM iceberg.lake.at_least_once").get(0).get(0) == 3000);
            run(session, "STOP STREAMING JOB alo_job");
            assertThat(query(session, "SELECT count(DISTINCT event_id), min(event_id), max(event_id) FROM iceberg.lake.at_least_once")).containsExactly(List.of(3000L, 0L, 2999L));
            assertThat(count(session, "iceberg.lake.at_least_once")).as("replayed rows may repeat").isGreaterThanOrEqualTo(3000);
        }
    }

    @Test
    void lifecycleAndErrors(@TempDir Path dataDirectory)
    {
        kafka.createTopic("lifecycle", 2);
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            createTables(session, "lifecycle", "lifecycle");
            String select = " SELECT event_id, category, amount, event_time FROM kafka.\"default\".lifecycle";

            assertError(session, "CREATE STREAMING JOB j AS INSERT INTO iceberg.lake.missing" + select,
                    ErrorCode.NOT_FOUND, "line 1:39: Table 'iceberg.lake.missing' does not exist");
            run(session, "CREATE TABLE iceberg.lake.wrong_types (event_id DATE, category VARCHAR, amount DOUBLE, event_time TIMESTAMP(3))");
            assertThatThrownBy(() -> run(session, "CREATE STREAMING JOB j AS INSERT INTO iceberg.lake.wrong_types" + select))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.getMessage()).contains("event_id"));
            assertError(session, "CREATE STREAMING JOB j WITH ('checkpoint.intervall' = '1s') AS INSERT INTO iceberg.lake.lifecycle" + select,
                    ErrorCode.INVALID_ARGUMENT, "Unknown streaming job option 'checkpoint.intervall'; the options are "
                            + "[checkpoint.interval, checkpoint.min-pause, checkpoint.timeout, delivery.guarantee, max-memory, max-parallelism, parallelism, rejects.table, restart.backoff, restart.max-attempts]");
            assertError(session, "CREATE STREAMING JOB j AS INSERT INTO iceberg.lake.counts SELECT category, count(*) FROM kafka.\"default\".lifecycle GROUP BY category",
                    ErrorCode.NOT_FOUND, "line 1:39: Table 'iceberg.lake.counts' does not exist");
            run(session, "CREATE TABLE iceberg.lake.counts (category VARCHAR, total BIGINT)");
            assertError(session, "CREATE STREAMING JOB j AS INSERT INTO iceberg.lake.counts SELECT category, count(*) FROM kafka.\"default\".lifecycle GROUP BY category",
                    ErrorCode.NOT_SUPPORTED, "line 1:116: Streaming jobs aggregate per event-time window only: GROUP BY window_start, window_end, ... over FROM TABLE(TUMBLE(...)), TABLE(HOP(...)) or TABLE(SESSION(...))");
            assertError(session, "CREATE STREAMING JOB j AS INSERT INTO iceberg.lake.lifecycle SELECT * FROM iceberg.lake.counts2",
                    ErrorCode.NOT_FOUND, null);
            assertThat(query(session, "SHOW STREAMING JOBS")).isEmpty();

            run(session, "CREATE STREAMING JOB life WITH ('checkpoint.interval' = '100ms', 'restart.max-attempts' = '2', 'restart.backoff' = '50ms') "
                    + "AS INSERT INTO iceberg.lake.lifecycle" + select + " WHERE amount > 100");
            run(session, "CREATE STREAMING JOB IF NOT EXISTS life AS INSERT INTO iceberg.lake.lifecycle" + select);
            assertError(session, "CREATE STREAMING JOB life AS INSERT INTO iceberg.lake.lifecycle" + select, ErrorCode.ALREADY_EXISTS, "line 1:22: Streaming job 'life' already exists");
            produce("lifecycle", 0, 500);
            long firstBatch = expectedCount(0, 500);
            await(() -> count(session, "iceberg.lake.lifecycle") == firstBatch);
            run(session, "STOP STREAMING JOB life");
            assertThat(query(session, "SHOW STREAMING JOBS").get(0).subList(0, 2)).containsExactly("life", "STOPPED");

            produce("lifecycle", 500, 500);
            sleep(500);
            assertThat(count(session, "iceberg.lake.lifecycle")).isEqualTo(firstBatch);
            run(session, "START STREAMING JOB life");
            assertThat(query(session, "SHOW STREAMING JOBS").get(0).get(1)).isEqualTo("RUNNING");
            await(() -> count(session, "iceberg.lake.lifecycle") == expectedCount(0, 1000));

            List<List<Object>> description = query(session, "DESCRIBE STREAMING JOB life");
            assertThat(description).contains(List.of("name", "life"), List.of("state", "RUNNING"), List.of("checkpoint.interval", "100ms"));
            assertThat(description.stream().filter(row -> row.get(0).equals("plan")).map(row -> (String) row.get(1)))
                    .anyMatch(line -> line.contains("Sink iceberg.lake.lifecycle"))
                    .anyMatch(line -> line.contains("FilterProject") && line.contains("[vectorized]"))
                    .anyMatch(line -> line.contains("Stream kafka.default.lifecycle"));
            assertThat(description.stream().filter(row -> row.get(0).equals("checkpoint"))).isNotEmpty();

            run(session, "DROP STREAMING JOB life");
            assertThat(query(session, "SHOW STREAMING JOBS")).isEmpty();
            assertError(session, "DESCRIBE STREAMING JOB life", ErrorCode.NOT_FOUND, "line 1:24: Streaming job 'life' does not exist");
            assertError(session, "DROP STREAMING JOB life", ErrorCode.NOT_FOUND, "line 1:20: Streaming job 'life' does not exist");
            run(session, "DROP STREAMING JOB IF EXISTS life");
        }
    }

    @Test
    void failingJobRestartsThenFails(@TempDir Path dataDirectory)
    {
        kafka.createTopic("fragile", 4);
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            createTables(session, "fragile", "fragile");
            run(session, "CREATE STREAMING JOB fragile_job WITH ('checkpoint.interval' = '100ms', 'restart.max-attempts' = '2', 'restart.backoff' = '50ms') "
                    + "AS INSERT INTO iceberg.lake.fragile SELECT * FROM kafka.\"default\".fragile");
            produce("fragile", 0, 100);
            await(() -> count(session, "iceberg.lake.fragile") == 100);
            run(session, "DROP TABLE iceberg.lake.fragile");
            produce("fragile", 100, 100);
            await(() -> query(session, "SHOW STREAMING JOBS").get(0).get(1).equals("FAILED"));
            assertThat((String) query(session, "SHOW STREAMING JOBS").get(0).get(LAST_ERROR)).contains("Table 'iceberg.lake.fragile' does not exist");
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            // a FAILED job stays failed after a restart, with its reason
            Session session = engine.createSession("admin");
            List<Object> job = query(session, "SHOW STREAMING JOBS").get(0);
            assertThat(job.get(1)).isEqualTo("FAILED");
            assertThat((String) job.get(LAST_ERROR)).contains("Table 'iceberg.lake.fragile' does not exist");
            run(session, "DROP STREAMING JOB fragile_job");
        }
    }

    @Test
    void statementsOverFlightSql(@TempDir Path dataDirectory)
            throws Exception
    {
        kafka.createTopic("flight", 2);
        produce("flight", 0, 200);
        try (OntulServer server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of("streaming-admin"),
                new PrintStream(OutputStream.nullOutputStream()));
                Connection connection = DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false&user=admin&password=streaming-admin");
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE CATALOG kafka USING kafka WITH (\"kafka.bootstrap-servers\" = '" + kafka.bootstrapServers() + "')");
            statement.execute("CREATE CATALOG iceberg USING iceberg");
            statement.execute("CREATE TABLE kafka.\"default\".flight " + COLUMNS + " WITH ('topic' = 'flight', 'format' = 'json')");
            statement.execute("CREATE SCHEMA iceberg.lake");
            statement.execute("CREATE TABLE iceberg.lake.flight " + COLUMNS);
            statement.execute("CREATE STREAMING JOB flight_job WITH ('checkpoint.interval' = '100ms') AS INSERT INTO iceberg.lake.flight "
                    + "SELECT * FROM kafka.\"default\".flight WHERE amount > 100");
            await(() -> {
                try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM iceberg.lake.flight")) {
                    rows.next();
                    return rows.getLong(1) == expectedCount(0, 200);
                }
                catch (SQLException e) {
                    throw new AssertionError(e);
                }
            });
            try (ResultSet rows = statement.executeQuery("SHOW STREAMING JOBS")) {
                assertThat(ResultRows.columnNames(rows.getMetaData())).isEqualTo(StreamingJobManager.SHOW_COLUMNS.stream().map(Field::getName).toList());
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString("name")).isEqualTo("flight_job");
                assertThat(rows.getString("state")).isEqualTo("RUNNING");
                assertThat(rows.getLong("records_in")).isEqualTo(200);
                assertThat(rows.getLong("last_checkpoint_id")).isPositive();
            }
            try (ResultSet rows = statement.executeQuery("DESCRIBE STREAMING JOB flight_job")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString(1)).isEqualTo("name");
            }
            statement.execute("STOP STREAMING JOB flight_job");
            statement.execute("DROP STREAMING JOB flight_job");
            assertThatThrownBy(() -> statement.execute("STOP STREAMING JOB flight_job"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("line 1:20: Streaming job 'flight_job' does not exist");
        }
    }

    @Test
    void windowedJobMatchesTheBatchQueryAcrossCrashes(@TempDir Path dataDirectory)
    {
        kafka.createTopic("windows", 4);
        int perRound = 4000;
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            createEventTable(session, "windows", "windows", "5s", "30s");
            run(session, "CREATE SCHEMA IF NOT EXISTS iceberg.lake");
            run(session, "CREATE TABLE iceberg.lake.window_summary " + SUMMARY_COLUMNS);
            run(session, "CREATE STREAMING JOB window_job WITH ('checkpoint.interval' = '100ms') AS INSERT INTO iceberg.lake.window_summary " + WINDOW_QUERY.formatted("windows"));
            produceWindowsAndCrash(session, perRound, 0, CrashPoints.AFTER_PREPARE_COMMIT);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            produceWindowsAndCrash(engine.createSession("admin"), perRound, 1, CrashPoints.AFTER_CHECKPOINT_COMPLETE);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            produceWindowsAndCrash(engine.createSession("admin"), perRound, 2, CrashPoints.AFTER_SINK_COMMIT);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            // closed abruptly between checkpoints, with windows open
            produceWindowsAndCrash(engine.createSession("admin"), perRound, 3, null);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            produceWindowEvents("windows", 4 * perRound, perRound);
            // one event per partition far ahead closes every window; its amount is filtered out
            List<ProducerRecord<String, String>> closing = new ArrayList<>();
            for (int partition = 0; partition < 4; partition++) {
                closing.add(new ProducerRecord<>("windows", partition, null, event(-1 - partition, 0.5, 100_000_000)));
            }
            kafka.produce(closing);
            String batch = WINDOW_QUERY.formatted("windows") + " ORDER BY window_start, category";
            List<List<Object>> expected = query(session, batch);
            assertThat(expected).isEqualTo(windowsComputedHere(5 * perRound));
            await(() -> count(session, "iceberg.lake.window_summary") >= expected.size());
            List<Object> job = query(session, "SHOW STREAMING JOBS").get(0);
            assertThat(job.get(RECORDS_LATE)).isEqualTo(0L);
            assertThat((String) job.get(WATERMARK)).isEqualTo("2026-01-02T03:46:35Z");
            assertThat((Long) job.get(LAST_CHECKPOINT_BYTES)).as("open windows and pending files in the checkpoint").isPositive();
            run(session, "STOP STREAMING JOB window_job");
            assertThat(query(session, "SELECT * FROM iceberg.lake.window_summary ORDER BY window_start, category")).isEqualTo(expected);
        }
    }

    /**
     * Issue 26: a windowed job of parallelism 4 over 8 partitions (4 source tasks, a hash shuffle by
     * key group, 4 window tasks, one Iceberg commit per checkpoint of every writer's files) and a
     * stateless one (4 source tasks writing their own files), crashed at each point of the
     * checkpoint protocol and rescaled 4 to 2 to 3 in between (ALTER STREAMING JOB on a stopped
     * job: each window task takes the state of the key groups it owns now), write exactly what the
     * batch queries over the same Kafka table return: nothing lost, nothing twice, no wrong window.
     */
    @Test
    void parallelJobsMatchTheBatchQueryAcrossCrashesAndRescales(@TempDir Path dataDirectory)
    {
        kafka.createTopic("parallel", 8);
        int perRound = 4000;
        String rows = "SELECT event_id, category, amount, event_time FROM kafka.\"default\".parallel WHERE amount > 100";
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            createEventTable(session, "parallel", "parallel", "5s", "30s");
            run(session, "CREATE SCHEMA IF NOT EXISTS iceberg.lake");
            run(session, "CREATE TABLE iceberg.lake.parallel_summary " + SUMMARY_COLUMNS);
            run(session, "CREATE TABLE iceberg.lake.parallel_rows " + COLUMNS);
            run(session, "CREATE STREAMING JOB parallel_windows WITH ('checkpoint.interval' = '100ms', 'parallelism' = '4') AS INSERT INTO iceberg.lake.parallel_summary "
                    + WINDOW_QUERY.formatted("parallel"));
            run(session, "CREATE STREAMING JOB parallel_rows WITH ('checkpoint.interval' = '100ms', 'parallelism' = '4') AS INSERT INTO iceberg.lake.parallel_rows " + rows);
            produceParallelAndCrash(session, perRound, 0, CrashPoints.AFTER_PREPARE_COMMIT);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            produceParallelAndCrash(engine.createSession("admin"), perRound, 1, CrashPoints.AFTER_CHECKPOINT_COMPLETE);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            rescale(session, 2);
            produceParallelAndCrash(session, perRound, 2, CrashPoints.AFTER_SINK_COMMIT);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            rescale(session, 3);
            // closed abruptly between checkpoints, with windows open
            produceParallelAndCrash(session, perRound, 3, null);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            produceWindowEvents("parallel", 8, 4 * perRound, perRound);
            // one event per partition far ahead closes every window; its amount is filtered out
            List<ProducerRecord<String, String>> closing = new ArrayList<>();
            for (int partition = 0; partition < 8; partition++) {
                closing.add(new ProducerRecord<>("parallel", partition, null, event(-1 - partition, 0.5, 100_000_000)));
            }
            kafka.produce(closing);
            List<List<Object>> expected = query(session, WINDOW_QUERY.formatted("parallel") + " ORDER BY window_start, category");
            assertThat(expected).isEqualTo(windowsComputedHere(5 * perRound));
            List<List<Object>> expectedRows = query(session, rows + " ORDER BY event_id");
            assertThat(expectedRows).hasSize((int) expectedCount(0, 5 * perRound));
            await(() -> count(session, "iceberg.lake.parallel_summary") >= expected.size() && count(session, "iceberg.lake.parallel_rows") >= expectedRows.size());
            // the tasks of parallelism 3: partitions dealt out in order, key groups in ranges
            assertThat(query(session, "SELECT task, kind, assignment FROM system.runtime.stream_tasks WHERE job = 'parallel_windows' ORDER BY task")).containsExactly(
                    List.of("source-0", "source", "partitions [0, 3, 6]"),
                    List.of("source-1", "source", "partitions [1, 4, 7]"),
                    List.of("source-2", "source", "partitions [2, 5]"),
                    List.of("window-0", "window", "key groups 0..42 of 128"),
                    List.of("window-1", "window", "key groups 43..85 of 128"),
                    List.of("window-2", "window", "key groups 86..127 of 128"));
            assertThat(query(session, "SELECT kind, count(*) FROM system.runtime.stream_tasks WHERE job = 'parallel_rows' GROUP BY kind")).containsExactly(List.of("source", 3L));
            List<List<Object>> flows = query(session, "SELECT sum(CASE WHEN kind = 'source' THEN records_out ELSE 0 END), sum(CASE WHEN kind = 'window' THEN records_in ELSE 0 END) "
                    + "FROM system.runtime.stream_tasks WHERE job = 'parallel_windows'");
            assertThat((Long) flows.get(0).get(0)).as("rows the source tasks sent into the shuffle").isPositive();
            assertThat((Long) flows.get(0).get(1)).as("rows the window tasks took from it").isPositive();
            assertThat(query(session, "DESCRIBE STREAMING JOB parallel_windows").stream().filter(row -> row.get(0).equals("task")).map(row -> (String) row.get(1)).toList())
                    .hasSize(6)
                    .anySatisfy(line -> assertThat(line).startsWith("window-2: key groups 86..127 of 128, records in "));
            Map<Object, List<Object>> shown = new HashMap<>();
            query(session, "SHOW STREAMING JOBS").forEach(job -> shown.put(job.get(0), job));
            assertThat(shown.get("parallel_windows").get(RECORDS_LATE)).isEqualTo(0L);
            assertThat(shown.get("parallel_windows").get(StreamingJobManager.SHOW_COLUMNS.size() - 2)).as("parallelism").isEqualTo(3L);
            assertThat((String) shown.get("parallel_windows").get(WATERMARK)).isEqualTo("2026-01-02T03:46:35Z");
            run(session, "STOP STREAMING JOB parallel_windows");
            run(session, "STOP STREAMING JOB parallel_rows");
            assertThat(query(session, "SELECT * FROM iceberg.lake.parallel_summary ORDER BY window_start, category")).isEqualTo(expected);
            assertThat(query(session, "SELECT * FROM iceberg.lake.parallel_rows ORDER BY event_id")).isEqualTo(expectedRows);
            assertError(session, "ALTER STREAMING JOB parallel_windows SET ('max-parallelism' = '64')", ErrorCode.INVALID_ARGUMENT,
                    "Streaming job option 'max-parallelism' cannot change: the job's state is kept in that many key groups");
            run(session, "START STREAMING JOB parallel_windows");
            assertError(session, "ALTER STREAMING JOB parallel_windows SET ('parallelism' = '2')", ErrorCode.INVALID_ARGUMENT,
                    "Streaming job 'parallel_windows' is RUNNING: stop it (STOP STREAMING JOB parallel_windows) before changing its options");
        }
    }

    /**
     * Back-pressure: the sink of a windowed job of parallelism 2 waits 100 ms before every write
     * (test connector slow-iceberg: Iceberg's own sink, slowed), so its window tasks fall behind a
     * backlog of 60,000 events. The source tasks then wait for room in the shuffle's bounded
     * channels (their blocked_ms grows) instead of queueing rows: the job's Arrow memory stays
     * under 8 MB, within its 24 MB budget, and its output is still the batch query's. Checkpoints
     * that wait behind the slow windows longer than their 20 ms timeout are aborted, the job
     * carries on, and a later checkpoint commits their rows: nothing is lost. Measured on
     * 2026-12-05: source tasks blocked 5.9 s, peak memory 0.75 MB (the printed line says it).
     */
    @Test
    void aSlowSinkHoldsTheSourcesBackAndTheJobsMemoryStaysBounded(@TempDir Path dataDirectory)
    {
        kafka.createTopic("slow", 4);
        Map<String, Map<String, String>> catalogs = new HashMap<>(config(dataDirectory).catalogs());
        catalogs.put("slowlake", Map.of("connector.name", "slow-iceberg", "iceberg.warehouse", dataDirectory.resolve("warehouse").toString(), SlowSinkConnectorFactory.DELAY, "100"));
        // polls of 500 records: many batches, each a few seconds of event time, so windows close (and the sink writes) every few polls
        catalogs.put("kafka", Map.of("connector.name", "kafka", "kafka.bootstrap-servers", kafka.bootstrapServers(), "kafka.max.poll.records", "500"));
        int events = 60_000;
        try (Engine engine = Engine.create(new EngineConfig(config(dataDirectory).properties(), catalogs))) {
            Session session = engine.createSession("admin");
            createEventTable(session, "slow", "slow", "5s", "30s");
            run(session, "CREATE SCHEMA IF NOT EXISTS iceberg.lake");
            run(session, "CREATE TABLE iceberg.lake.slow_summary " + SUMMARY_COLUMNS);
            produceWindowEvents("slow", 0, events);
            List<ProducerRecord<String, String>> closing = new ArrayList<>();
            for (int partition = 0; partition < 4; partition++) {
                closing.add(new ProducerRecord<>("slow", partition, null, event(-1 - partition, 0.5, 100_000_000)));
            }
            kafka.produce(closing);
            // checkpoints wait behind the slow windows: each one not acknowledged within 20 ms is aborted and carried by a later one
            run(session, "CREATE STREAMING JOB slow_job WITH ('checkpoint.interval' = '200ms', 'checkpoint.timeout' = '20ms', 'parallelism' = '2', 'max-memory' = '24MB') "
                    + "AS INSERT INTO slowlake.lake.slow_summary " + WINDOW_QUERY.formatted("slow"));
            List<List<Object>> expected = query(session, WINDOW_QUERY.formatted("slow") + " ORDER BY window_start, category");
            assertThat(expected).isEqualTo(windowsComputedHere(events));
            await(() -> count(session, "iceberg.lake.slow_summary") >= expected.size());
            long blocked = (long) query(session, "SELECT sum(blocked_ms) FROM system.runtime.stream_tasks WHERE job = 'slow_job' AND kind = 'source'").get(0).get(0);
            Map<String, String> described = new HashMap<>();
            query(session, "DESCRIBE STREAMING JOB slow_job").forEach(row -> described.putIfAbsent((String) row.get(0), (String) row.get(1)));
            long peak = Long.parseLong(described.get("memory_peak_bytes"));
            assertThat(described.get("state")).isEqualTo("RUNNING");
            assertThat(described.get("last_error")).isNull();
            assertThat(blocked).as("time the source tasks waited for the slow window tasks").isPositive();
            assertThat(Long.parseLong(described.get("checkpoints_aborted"))).as("checkpoints aborted by their timeout").isPositive();
            assertThat(Long.parseLong(described.get("last_checkpoint_id"))).as("checkpoints completed all the same").isPositive();
            assertThat(peak).as("the job's peak Arrow memory, with a backlog of %,d events behind a slow sink", events).isPositive().isLessThan(8L << 20);
            System.out.printf("slow sink: source tasks blocked %d ms, job memory peak %,d bytes%n", blocked, peak);
            run(session, "STOP STREAMING JOB slow_job");
            assertThat(query(session, "SELECT * FROM iceberg.lake.slow_summary ORDER BY window_start, category")).isEqualTo(expected);
        }
    }

    /** Stops both parallel jobs, sets their parallelism and starts them again. */
    private static void rescale(Session session, int parallelism)
    {
        for (String job : List.of("parallel_windows", "parallel_rows")) {
            run(session, "STOP STREAMING JOB " + job);
            run(session, "ALTER STREAMING JOB " + job + " SET ('parallelism' = '" + parallelism + "')");
            run(session, "START STREAMING JOB " + job);
        }
        Map<String, String> described = new HashMap<>();
        query(session, "DESCRIBE STREAMING JOB parallel_windows").forEach(row -> described.put((String) row.get(0), (String) row.get(1)));
        assertThat(described.get("parallelism")).isEqualTo(String.valueOf(parallelism));
    }

    private static void produceParallelAndCrash(Session session, int perRound, int round, String point)
    {
        long windowsBefore = count(session, "iceberg.lake.parallel_summary");
        long rowsBefore = count(session, "iceberg.lake.parallel_rows");
        produceWindowEvents("parallel", 8, round * perRound, perRound);
        await(() -> count(session, "iceberg.lake.parallel_summary") > windowsBefore && count(session, "iceberg.lake.parallel_rows") > rowsBefore);
        if (point != null) {
            crashAt(point);
        }
    }

    @Test
    void lateRecordsAndIdlePartitions(@TempDir Path dataDirectory)
    {
        kafka.createTopic("late", 2);
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            createEventTable(session, "late", "late", "0s", "1s");
            run(session, "CREATE SCHEMA IF NOT EXISTS iceberg.lake");
            run(session, "CREATE TABLE iceberg.lake.late_summary " + SUMMARY_COLUMNS);
            String query = "SELECT window_start, window_end, category, sum(amount), count(*) FROM TABLE(TUMBLE(TABLE kafka.\"default\".late, DESCRIPTOR(event_time), INTERVAL '10' SECOND)) "
                    + "GROUP BY window_start, window_end, category";
            run(session, "CREATE STREAMING JOB late_job WITH ('checkpoint.interval' = '100ms') AS INSERT INTO iceberg.lake.late_summary " + query);

            // partition 1 stays silent: once idle (1 s) it no longer holds the watermark at nothing
            kafka.produce(List.of(new ProducerRecord<>("late", 0, null, event(1, 1.5, 1_000)), new ProducerRecord<>("late", 0, null, event(2, 2.5, 12_000))));
            await(() -> count(session, "iceberg.lake.late_summary") == 1);
            assertThat(query(session, "SHOW STREAMING JOBS").get(0).get(WATERMARK)).isEqualTo("2026-01-01T00:00:12Z");
            // behind the watermark: window [0 s, 10 s) was written already
            kafka.produce(List.of(new ProducerRecord<>("late", 0, null, event(3, 100.5, 5_000))));
            await(() -> query(session, "SHOW STREAMING JOBS").get(0).get(RECORDS_LATE).equals(1L));
            kafka.produce(List.of(new ProducerRecord<>("late", 1, null, event(4, 3.5, 25_000))));
            await(() -> count(session, "iceberg.lake.late_summary") == 2);
            assertThat(query(session, "SELECT window_start, window_end, total, cnt FROM iceberg.lake.late_summary ORDER BY window_start")).isEqualTo(List.of(
                    List.of(EPOCH, EPOCH.plusSeconds(10), 1.5, 1L),
                    List.of(EPOCH.plusSeconds(10), EPOCH.plusSeconds(20), 2.5, 1L)));
            run(session, "DROP STREAMING JOB late_job");

            run(session, "CREATE TABLE kafka.\"default\".late_plain " + COLUMNS + " WITH ('topic' = 'late', 'format' = 'json')");
            assertError(session, "CREATE STREAMING JOB j AS INSERT INTO iceberg.lake.late_summary " + query.replace(".late,", ".late_plain,"), ErrorCode.INVALID_ARGUMENT,
                    "line 1:135: Table 'kafka.default.late_plain' declares no event time: windows in a streaming job need a watermark; set 'watermark.column' (and 'watermark.delay') in the table's WITH options");
            assertError(session, "CREATE STREAMING JOB j AS INSERT INTO iceberg.lake.late_summary " + query.replace("TABLE kafka.\"default\".late,",
                    "(SELECT event_id, category, amount, _timestamp AS event_time FROM kafka.\"default\".late),"), ErrorCode.INVALID_ARGUMENT,
                    "line 1:135: TUMBLE in a streaming job must use the event-time column of table 'kafka.default.late' ('event_time', its 'watermark.column'), not '_timestamp'");
            assertError(session, "CREATE STREAMING JOB j AS INSERT INTO iceberg.lake.late_summary " + query.replace("SELECT window_start, window_end,", "SELECT window_start, window_start,")
                    .replace("GROUP BY window_start, window_end,", "GROUP BY window_start,"), ErrorCode.INVALID_ARGUMENT, null);
            assertThat(query(session, "SHOW STREAMING JOBS")).isEmpty();
        }
    }

    /** The rows of {@link #WINDOW_QUERY} over events 0 to count - 1, computed here, by window start and category. */
    private static List<List<Object>> windowsComputedHere(int count)
    {
        Map<List<Object>, double[]> windows = new TreeMap<>(Comparator.comparing((List<Object> key) -> (Long) key.get(0)).thenComparing(key -> (String) key.get(1)));
        for (int i = 0; i < count; i++) {
            if (amount(i) > 100) {
                long start = Math.floorDiv(i * 10L - (i * 7919L % 3000), 10_000) * 10_000;
                double[] totals = windows.computeIfAbsent(List.of(start, "c" + i % 10), key -> new double[2]);
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

    /**
     * A SESSION window per category at parallelism 2: rows reach the window tasks hashed by the
     * session's key, the sessions and their aggregation live on the task that owns the key; after
     * a crash the job restarts with parallelism 3 (the sessions held in the checkpoint move to the
     * tasks that own their keys now) and its output equals the batch query's.
     */
    @Test
    void sessionWindowsRunInParallelAndMatchTheBatchQueryAcrossACrashAndARescale(@TempDir Path dataDirectory)
    {
        kafka.createTopic("sessions", 2);
        String query = "SELECT window_start, window_end, category, sum(amount) AS total, count(*) AS cnt "
                + "FROM TABLE(SESSION(TABLE kafka.\"default\".sessions, DESCRIPTOR(event_time), DESCRIPTOR(category), INTERVAL '5' SECOND)) "
                + "GROUP BY window_start, window_end, category";
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            createEventTable(session, "sessions", "sessions", "2s", "30s");
            run(session, "CREATE SCHEMA IF NOT EXISTS iceberg.lake");
            run(session, "CREATE TABLE iceberg.lake.session_summary " + SUMMARY_COLUMNS);
            assertError(session, "CREATE STREAMING JOB unkeyed WITH ('parallelism' = '2') AS INSERT INTO iceberg.lake.session_summary "
                    + query.replace("DESCRIPTOR(category), ", ""), ErrorCode.NOT_SUPPORTED,
                    "Streaming job option 'parallelism' = 2 is not supported for a SESSION window without key columns (DESCRIPTOR(key, ...)): its sessions span every key: "
                            + "use 'parallelism' = '1'");
            assertError(session, "CREATE STREAMING JOB mixed WITH ('parallelism' = '2') AS INSERT INTO iceberg.lake.session_summary "
                    + "SELECT window_start, window_end, 'all', sum(amount), count(*) FROM TABLE(SESSION(TABLE kafka.\"default\".sessions, DESCRIPTOR(event_time), DESCRIPTOR(category), "
                    + "INTERVAL '5' SECOND)) GROUP BY window_start, window_end", ErrorCode.NOT_SUPPORTED,
                    "Streaming job option 'parallelism' = 2 is not supported for a SESSION window whose key columns are not all in the GROUP BY of every aggregation above it: "
                            + "use 'parallelism' = '1'");
            run(session, "CREATE STREAMING JOB session_job WITH ('checkpoint.interval' = '100ms', 'parallelism' = '2') AS INSERT INTO iceberg.lake.session_summary " + query);
            produceSessionEvents(0, 1000);
            await(() -> count(session, "iceberg.lake.session_summary") > 0);
            assertThat(query(session, "DESCRIBE STREAMING JOB session_job").stream().filter(row -> row.get(0).equals("plan")).map(row -> (String) row.get(1)))
                    .anyMatch(line -> line.contains("SESSION gap=5000"));
            crashAt(CrashPoints.AFTER_CHECKPOINT_COMPLETE);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            run(session, "STOP STREAMING JOB session_job");
            run(session, "ALTER STREAMING JOB session_job SET ('parallelism' = '3')");
            run(session, "START STREAMING JOB session_job");
            produceSessionEvents(1000, 1000);
            // far ahead, in both partitions, of its own key: closes every other session
            kafka.produce(List.of(new ProducerRecord<>("sessions", 0, null, event(-1, 0.5, 100_000_000)), new ProducerRecord<>("sessions", 1, null, event(-1, 0.5, 100_000_000))));
            List<List<Object>> expected = query(session, "SELECT * FROM (" + query + ") WHERE category <> 'c9' ORDER BY window_start, category");
            assertThat(expected).hasSizeGreaterThan(100);
            await(() -> count(session, "iceberg.lake.session_summary") >= expected.size());
            assertThat((Long) query(session, "SELECT count(*) FROM system.runtime.stream_tasks WHERE job = 'session_job' AND kind = 'window' AND records_in > 0").get(0).get(0))
                    .as("window tasks that took rows").isGreaterThan(1L);
            run(session, "STOP STREAMING JOB session_job");
            assertThat(query(session, "SELECT * FROM iceberg.lake.session_summary ORDER BY window_start, category")).isEqualTo(expected);
            assertThat(query(session, "SHOW STREAMING JOBS").get(0).get(RECORDS_LATE)).isEqualTo(0L);
        }
    }

    /** Events of 5 keys (c0 to c4) 300 ms apart, up to 1 s out of order, with a 6 s pause after every 50: sessions of 5 s gap break there. */
    private static void produceSessionEvents(int from, int count)
    {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            long millis = i * 300L + (i / 50) * 6000L - (i * 7919L % 1000);
            records.add(new ProducerRecord<>("sessions", i % 2, null, "{\"event_id\": %d, \"category\": \"c%d\", \"amount\": %s, \"event_time\": \"%s\"}"
                    .formatted(i, i % 5, amount(i), EVENT_TIME.format(EPOCH.plus(Duration.ofMillis(millis))))));
        }
        kafka.produce(records);
    }

    /**
     * COUNT(DISTINCT) is planned as two stacked window aggregations (by window, category and
     * amount, then by window and category): at parallelism 3 the rows are hashed by what both
     * group by (window and category), so each task fires whole groups of the outer aggregation;
     * after a crash the job restarts with parallelism 2 and both aggregations' open windows move
     * by key group. The output equals the batch query's.
     */
    @Test
    void distinctCountsRunInParallelAndMatchTheBatchQueryAcrossACrashAndARescale(@TempDir Path dataDirectory)
    {
        kafka.createTopic("distinct_events", 4);
        String query = "SELECT window_start, window_end, category, count(DISTINCT amount) AS distinct_amounts, count(*) AS cnt "
                + "FROM TABLE(HOP(TABLE kafka.\"default\".distinct_events, DESCRIPTOR(event_time), INTERVAL '5' SECOND, INTERVAL '10' SECOND)) "
                + "GROUP BY window_start, window_end, category";
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            createEventTable(session, "distinct_events", "distinct_events", "5s", "30s");
            run(session, "CREATE SCHEMA IF NOT EXISTS iceberg.lake");
            run(session, "CREATE TABLE iceberg.lake.distinct_summary (window_start TIMESTAMP(3), window_end TIMESTAMP(3), category VARCHAR, distinct_amounts BIGINT, cnt BIGINT)");
            run(session, "CREATE STREAMING JOB distinct_job WITH ('checkpoint.interval' = '100ms', 'parallelism' = '3') AS INSERT INTO iceberg.lake.distinct_summary " + query);
            produceWindowEvents("distinct_events", 0, 3000);
            await(() -> count(session, "iceberg.lake.distinct_summary") > 0);
            crashAt(CrashPoints.AFTER_PREPARE_COMMIT);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            run(session, "STOP STREAMING JOB distinct_job");
            run(session, "ALTER STREAMING JOB distinct_job SET ('parallelism' = '2')");
            run(session, "START STREAMING JOB distinct_job");
            produceWindowEvents("distinct_events", 3000, 3000);
            List<ProducerRecord<String, String>> closing = new ArrayList<>();
            for (int partition = 0; partition < 4; partition++) {
                closing.add(new ProducerRecord<>("distinct_events", partition, null, event(-1 - partition, 0.5, 100_000_000)));
            }
            kafka.produce(closing);
            List<List<Object>> expected = query(session, "SELECT * FROM (" + query + ") WHERE window_end < TIMESTAMP '2026-01-02 00:00:00' ORDER BY window_start, category");
            assertThat(expected).hasSizeGreaterThan(100);
            await(() -> count(session, "iceberg.lake.distinct_summary") >= expected.size());
            assertThat(query(session, "DESCRIBE STREAMING JOB distinct_job").stream().filter(row -> row.get(0).equals("plan")).filter(row -> ((String) row.get(1)).contains("WindowHashAggregate")))
                    .as("two stacked window aggregations").hasSize(2);
            assertThat(query(session, "SELECT count(*) FROM system.runtime.stream_tasks WHERE job = 'distinct_job' AND kind = 'window' AND records_in > 0").get(0).get(0))
                    .as("window tasks that took rows").isEqualTo(2L);
            run(session, "STOP STREAMING JOB distinct_job");
            assertThat(query(session, "SELECT * FROM iceberg.lake.distinct_summary ORDER BY window_start, category")).isEqualTo(expected);
        }
    }

    /**
     * A parallel job into a Kafka table, exactly once across crashes at each point and a rescale
     * (3 → 2 writers): every writer commits through a transactional id of its own.
     */
    @Test
    void kafkaSinkExactlyOnceAcrossCrashes(@TempDir Path dataDirectory)
            throws Exception
    {
        kafka.createTopic("to_kafka_in", 4);
        kafka.createTopic("to_kafka_out", 2);
        int perRound = 2000;
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            run(session, "CREATE TABLE kafka.\"default\".to_kafka_in " + COLUMNS + " WITH ('topic' = 'to_kafka_in', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset')");
            run(session, "CREATE TABLE kafka.\"default\".to_kafka_out " + COLUMNS + " WITH ('topic' = 'to_kafka_out', 'format' = 'json')");
            run(session, "CREATE STREAMING JOB to_kafka WITH ('checkpoint.interval' = '100ms', 'parallelism' = '3') AS INSERT INTO kafka.\"default\".to_kafka_out "
                    + "SELECT event_id, category, amount * 2, event_time FROM kafka.\"default\".to_kafka_in WHERE amount > 100");
            produceAndCrashInto(session, perRound, 0, CrashPoints.AFTER_PREPARE_COMMIT);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            // the restart replays the last complete checkpoint of three writers, then rescales
            Session session = engine.createSession("admin");
            produceAndCrashInto(session, perRound, 1, null);
            run(session, "STOP STREAMING JOB to_kafka");
            run(session, "ALTER STREAMING JOB to_kafka SET ('parallelism' = '2')");
            run(session, "START STREAMING JOB to_kafka");
            crashAt(CrashPoints.AFTER_CHECKPOINT_COMPLETE);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            produceAndCrashInto(engine.createSession("admin"), perRound, 2, CrashPoints.AFTER_SINK_COMMIT);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            // closed abruptly between checkpoints, while it reads
            produceAndCrashInto(engine.createSession("admin"), perRound, 3, null);
        }
        List<List<Object>> expected = new ArrayList<>();
        for (int i = 0; i < 5 * perRound; i++) {
            if (amount(i) > 100) {
                expected.add(List.of((long) i, amount(i) * 2));
            }
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            produce("to_kafka_in", 4 * perRound, perRound);
            await(() -> count(session, "kafka.\"default\".to_kafka_out") >= expected.size());
            run(session, "STOP STREAMING JOB to_kafka");
            assertThat(query(session, "SELECT event_id, amount FROM kafka.\"default\".to_kafka_out ORDER BY event_id")).isEqualTo(expected);
        }
        // one transactional id per writer task (three, then two of them), none shared by the job's writers
        List<String> ids = kafka.admin().listTransactions().all().get().stream()
                .map(org.apache.kafka.clients.admin.TransactionListing::transactionalId)
                .filter(id -> id.startsWith("ontul-stream-") && id.contains("-kafka.default.to_kafka_out"))
                .map(id -> id.substring(id.indexOf("-kafka.default.to_kafka_out") + "-kafka.default.to_kafka_out".length()))
                .sorted()
                .toList();
        assertThat(ids).containsExactly("-source-0", "-source-1", "-source-2");
    }

    private static void produceAndCrashInto(Session session, int perRound, int round, String point)
    {
        long before = count(session, "kafka.\"default\".to_kafka_out");
        produce("to_kafka_in", round * perRound, perRound);
        await(() -> count(session, "kafka.\"default\".to_kafka_out") > before);
        if (point != null) {
            crashAt(point);
        }
    }

    @Test
    void windowStateSpillsUnderASmallMemoryBudget(@TempDir Path dataDirectory)
    {
        kafka.createTopic("big_windows", 4);
        String query = "SELECT window_start, window_end, event_id, count(*) AS cnt, sum(amount) AS total "
                + "FROM TABLE(TUMBLE(TABLE kafka.\"default\".big_windows, DESCRIPTOR(event_time), INTERVAL '1000' SECOND)) GROUP BY window_start, window_end, event_id";
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            createEventTable(session, "big_windows", "big_windows", "5s", "30s");
            run(session, "CREATE SCHEMA IF NOT EXISTS iceberg.lake");
            run(session, "CREATE TABLE iceberg.lake.big_windows (window_start TIMESTAMP(3), window_end TIMESTAMP(3), event_id BIGINT, cnt BIGINT, total DOUBLE)");
            run(session, "CREATE STREAMING JOB big_job WITH ('checkpoint.interval' = '500ms', 'max-memory' = '24MB') AS INSERT INTO iceberg.lake.big_windows " + query);
            produceWindowEvents("big_windows", 0, 150_000);
            List<ProducerRecord<String, String>> closing = new ArrayList<>();
            for (int partition = 0; partition < 4; partition++) {
                closing.add(new ProducerRecord<>("big_windows", partition, null, event(-1 - partition, 0.5, 100_000_000)));
            }
            kafka.produce(closing);
            List<List<Object>> expected = query(session, "SELECT window_start, count(*), sum(cnt), sum(total) FROM (" + query + ") WHERE event_id >= 0 GROUP BY window_start ORDER BY window_start");
            await(() -> count(session, "iceberg.lake.big_windows") >= 150_000);
            List<Object> job = query(session, "SHOW STREAMING JOBS").get(0);
            assertThat(job.get(1)).as("state, error: %s", job.get(LAST_ERROR)).isEqualTo("RUNNING");
            assertThat((Long) job.get(SPILLED_BYTES)).as("window state spilled").isPositive();
            run(session, "STOP STREAMING JOB big_job");
            assertThat(query(session, "SELECT window_start, count(*), sum(cnt), sum(total) FROM iceberg.lake.big_windows GROUP BY window_start ORDER BY window_start")).isEqualTo(expected);
        }
    }

    @Test
    void kafkaDownRetriesThenFails(@TempDir Path dataDirectory)
    {
        EmbeddedKafka lonely = EmbeddedKafka.start();
        try {
            lonely.createTopic("outage", 2);
            EngineConfig config = new EngineConfig(Map.of("ontul.data-dir", dataDirectory.toString()), Map.of(
                    "kafka", Map.of("connector.name", "kafka", "kafka.bootstrap-servers", lonely.bootstrapServers(), "kafka.api-timeout", "1s"),
                    "iceberg", Map.of("connector.name", "iceberg", "iceberg.warehouse", dataDirectory.resolve("warehouse").toString())));
            try (Engine engine = Engine.create(config)) {
                Session session = engine.createSession("admin");
                createTables(session, "outage", "outage");
                run(session, "CREATE STREAMING JOB outage_job WITH ('checkpoint.interval' = '100ms', 'restart.max-attempts' = '2', 'restart.backoff' = '100ms') "
                        + "AS INSERT INTO iceberg.lake.outage SELECT * FROM kafka.\"default\".outage");
                List<ProducerRecord<String, String>> records = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    records.add(new ProducerRecord<>("outage", i % 2, null, event(i, amount(i), i * 10L)));
                }
                lonely.produce(records);
                await(() -> count(session, "iceberg.lake.outage") == 100);
                await(() -> Long.valueOf(0).equals(query(session, "SHOW STREAMING JOBS").get(0).get(SOURCE_LAG)));

                lonely.close();
                lonely = null;
                await(() -> "FAILED".equals(query(session, "SHOW STREAMING JOBS").get(0).get(1)));
                List<Object> job = query(session, "SHOW STREAMING JOBS").get(0);
                assertThat((String) job.get(LAST_ERROR)).startsWith("Kafka at 127.0.0.1:");
                assertThat(job.get(SOURCE_LAG)).as("not running").isNull();
                assertThat(count(session, "iceberg.lake.outage")).isEqualTo(100);
            }
        }
        finally {
            if (lonely != null) {
                lonely.close();
            }
        }
    }

    private static void produceWindowsAndCrash(Session session, int perRound, int round, String point)
    {
        long before = count(session, "iceberg.lake.window_summary");
        produceWindowEvents("windows", round * perRound, perRound);
        await(() -> count(session, "iceberg.lake.window_summary") > before);
        if (point != null) {
            crashAt(point);
        }
    }

    /** Events 10 ms apart in event time, out of order by up to 3 s (the tables' delay is more), round robin over 4 partitions. */
    private static void produceWindowEvents(String topic, int from, int count)
    {
        produceWindowEvents(topic, 4, from, count);
    }

    private static void produceWindowEvents(String topic, int partitions, int from, int count)
    {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            records.add(new ProducerRecord<>(topic, i % partitions, null, event(i, amount(i), i * 10L - (i * 7919L % 3000))));
        }
        kafka.produce(records);
    }

    private static String event(long id, double amount, long millis)
    {
        return "{\"event_id\": %d, \"category\": \"c%d\", \"amount\": %s, \"event_time\": \"%s\"}"
                .formatted(id, Math.floorMod(id, 10), amount, EVENT_TIME.format(EPOCH.plus(Duration.ofMillis(millis))));
    }

    private static void createEventTable(Session session, String topic, String table, String delay, String idleTimeout)
    {
        run(session, "CREATE TABLE kafka.\"default\"." + table + " " + COLUMNS + " WITH ('topic' = '" + topic + "', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset', "
                + "'watermark.column' = 'event_time', 'watermark.delay' = '" + delay + "', 'watermark.idle-timeout' = '" + idleTimeout + "')");
    }

    /** Produces round {@code round}, waits until the job commits some of it, then crashes it at {@code point} (or lets the caller close the engine). */
    private static void produceAndCrash(Session session, int perRound, int round, String point)
    {
        long before = count(session, "iceberg.lake.crashes");
        produce("crashes", round * perRound, perRound);
        await(() -> count(session, "iceberg.lake.crashes") > before);
        if (point != null) {
            crashAt(point);
        }
    }

    private static void crashAt(String point)
    {
        System.setProperty(CrashPoints.PROPERTY, point);
        try {
            await(() -> System.getProperty(CrashPoints.PROPERTY) == null);
        }
        finally {
            System.clearProperty(CrashPoints.PROPERTY);
        }
    }

    /**
     * A job runs as its owner: created with the owner's privileges, controlled by the owner or an
     * administrator only, and failing at its next start, with the reason, once the owner lost
     * SELECT on its source.
     */
    @Test
    void aJobRunsAsItsOwnerAndFailsAtRestartWhenTheOwnerLosesItsSource(@TempDir Path dataDirectory)
    {
        kafka.createTopic("owned", 4);
        produce("owned", 0, 500);
        try (Engine engine = Engine.createWithAccounts(config(dataDirectory), "admin")) {
            Session admin = engine.createSession("admin");
            createTables(admin, "owned", "owned");
            run(admin, "CREATE USER ann PASSWORD 'ann-password'");
            run(admin, "CREATE USER bob PASSWORD 'bob-password'");
            Session ann = engine.createSession("ann");
            Session bob = engine.createSession("bob");
            String job = "CREATE STREAMING JOB owned_job WITH ('checkpoint.interval' = '200ms') AS INSERT INTO iceberg.lake.owned "
                    + "SELECT event_id, category, amount, event_time FROM kafka.\"default\".owned WHERE amount > 100";
            assertError(ann, job, ErrorCode.PERMISSION_DENIED, "Access denied: user 'ann' cannot INSERT into table 'iceberg.lake.owned'");
            run(admin, "GRANT INSERT ON TABLE iceberg.lake.owned TO USER ann");
            assertError(ann, job, ErrorCode.PERMISSION_DENIED, "Access denied: user 'ann' cannot SELECT from table 'kafka.default.owned'");
            run(admin, "GRANT SELECT ON SCHEMA kafka.\"default\" TO USER ann");
            run(ann, job);
            await(() -> count(admin, "iceberg.lake.owned") == expectedCount(0, 500));
            List<Object> shown = query(admin, "SHOW STREAMING JOBS").get(0);
            assertThat(shown.get(0)).isEqualTo("owned_job");
            assertThat(shown.get(StreamingJobManager.SHOW_COLUMNS.size() - 1)).as("owner").isEqualTo("ann");

            assertError(bob, "STOP STREAMING JOB owned_job", ErrorCode.PERMISSION_DENIED,
                    "line 1:1: Access denied: user 'bob' cannot STOP streaming job 'owned_job': only its owner 'ann' or an administrator can");
            assertError(bob, "DROP STREAMING JOB owned_job", ErrorCode.PERMISSION_DENIED,
                    "line 1:1: Access denied: user 'bob' cannot DROP streaming job 'owned_job': only its owner 'ann' or an administrator can");
            run(ann, "STOP STREAMING JOB owned_job");

            run(admin, "REVOKE SELECT ON SCHEMA kafka.\"default\" FROM USER ann");
            produce("owned", 500, 200);
            try {
                run(ann, "START STREAMING JOB owned_job");
            }
            catch (OntulException e) {
                assertThat(e.getMessage()).contains("Access denied: user 'ann' cannot SELECT from table 'kafka.default.owned'");
            }
            await(() -> "FAILED".equals(query(admin, "SHOW STREAMING JOBS").get(0).get(1)));
            assertThat((String) query(admin, "SHOW STREAMING JOBS").get(0).get(LAST_ERROR))
                    .contains("Access denied: user 'ann' cannot SELECT from table 'kafka.default.owned'");
            assertThat(count(admin, "iceberg.lake.owned")).as("nothing written after the revoke").isEqualTo(expectedCount(0, 500));
            run(admin, "DROP STREAMING JOB owned_job");
        }
    }

    /** The owner's row filter and column mask hold in the job's output, as in a batch query written with them by hand. */
    @Test
    void aJobsOutputHonoursItsOwnersRowFilterAndColumnMask(@TempDir Path dataDirectory)
    {
        kafka.createTopic("policed", 4);
        produce("policed", 0, 600);
        try (Engine engine = Engine.createWithAccounts(config(dataDirectory), "admin")) {
            Session admin = engine.createSession("admin");
            createTables(admin, "policed", "policed");
            run(admin, "CREATE USER ann PASSWORD 'ann-password'");
            run(admin, "GRANT INSERT ON TABLE iceberg.lake.policed TO USER ann");
            run(admin, "GRANT SELECT ON TABLE kafka.\"default\".policed TO USER ann");
            run(admin, "CREATE ROW FILTER small ON TABLE kafka.\"default\".policed FOR USER ann USING (amount < 150)");
            run(admin, "CREATE COLUMN MASK no_category ON TABLE kafka.\"default\".policed (category) FOR USER ann USING ('hidden')");
            Session ann = engine.createSession("ann");
            run(ann, "CREATE STREAMING JOB policed_job WITH ('checkpoint.interval' = '200ms') AS INSERT INTO iceberg.lake.policed "
                    + "SELECT event_id, category, amount, event_time FROM kafka.\"default\".policed WHERE amount > 100");
            String handWritten = "SELECT event_id, 'hidden', amount, event_time FROM kafka.\"default\".policed WHERE amount > 100 AND amount < 150 ORDER BY event_id";
            long expected = query(admin, handWritten).size();
            assertThat(expected).isPositive().isLessThan(expectedCount(0, 600));
            await(() -> count(admin, "iceberg.lake.policed") == expected);
            assertThat(query(admin, "SELECT * FROM iceberg.lake.policed ORDER BY event_id")).isEqualTo(query(admin, handWritten));
            run(admin, "DROP STREAMING JOB policed_job");
        }
    }

    /** A windowed job of a user with a row filter and a column mask on its source: the windows hold what the user sees. */
    @Test
    void aWindowedJobAggregatesWhatItsOwnersPoliciesLetItSee(@TempDir Path dataDirectory)
    {
        kafka.createTopic("policed_windows", 4);
        String query = "SELECT window_start, window_end, category, sum(amount) AS total, count(*) AS cnt "
                + "FROM TABLE(TUMBLE(TABLE kafka.\"default\".policed_windows, DESCRIPTOR(event_time), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, category";
        try (Engine engine = Engine.createWithAccounts(config(dataDirectory), "admin")) {
            Session admin = engine.createSession("admin");
            createEventTable(admin, "policed_windows", "policed_windows", "5s", "30s");
            run(admin, "CREATE SCHEMA IF NOT EXISTS iceberg.lake");
            run(admin, "CREATE TABLE iceberg.lake.policed_summary " + SUMMARY_COLUMNS);
            run(admin, "CREATE USER ann PASSWORD 'ann-password'");
            run(admin, "GRANT INSERT ON TABLE iceberg.lake.policed_summary TO USER ann");
            run(admin, "GRANT SELECT ON TABLE kafka.\"default\".policed_windows TO USER ann");
            run(admin, "CREATE ROW FILTER big ON TABLE kafka.\"default\".policed_windows FOR USER ann USING (amount > 100)");
            run(admin, "CREATE COLUMN MASK coarse ON TABLE kafka.\"default\".policed_windows (category) FOR USER ann "
                    + "USING (CASE WHEN category IN ('c0', 'c1') THEN 'low' ELSE 'high' END)");
            Session ann = engine.createSession("ann");
            run(ann, "CREATE STREAMING JOB policed_windows_job WITH ('checkpoint.interval' = '100ms') AS INSERT INTO iceberg.lake.policed_summary " + query);
            produceWindowEvents("policed_windows", 0, 3000);
            List<ProducerRecord<String, String>> closing = new ArrayList<>();
            for (int partition = 0; partition < 4; partition++) {
                closing.add(new ProducerRecord<>("policed_windows", partition, null, event(-1 - partition, 0.5, 100_000_000)));
            }
            kafka.produce(closing);
            // the same windows written by hand, with the filter and the mask in place
            String masked = "CASE WHEN category IN ('c0', 'c1') THEN 'low' ELSE 'high' END";
            String handWritten = "SELECT window_start, window_end, " + masked + " AS category, sum(amount) AS total, count(*) AS cnt "
                    + "FROM TABLE(TUMBLE(TABLE kafka.\"default\".policed_windows, DESCRIPTOR(event_time), INTERVAL '10' SECOND)) WHERE amount > 100 "
                    + "GROUP BY window_start, window_end, " + masked;
            List<List<Object>> expected = query(admin, "SELECT * FROM (" + handWritten + ") WHERE window_end < TIMESTAMP '2026-01-02 00:00:00' ORDER BY window_start, category");
            // 30 s of events: four 10 s windows, each with both masked categories
            assertThat(expected).hasSizeGreaterThanOrEqualTo(6);
            assertThat(expected).extracting(row -> row.get(2)).containsOnly("low", "high");
            await(() -> count(admin, "iceberg.lake.policed_summary") >= expected.size());
            run(admin, "STOP STREAMING JOB policed_windows_job");
            assertThat(query(admin, "SELECT * FROM iceberg.lake.policed_summary ORDER BY window_start, category")).isEqualTo(expected);
        }
    }

    /**
     * A parallel job into a blackhole table counts what it writes (the batch query over the same
     * Kafka table gives the number) and keeps nothing; the table and the job are there after a
     * restart, and the restarted job goes on counting.
     */
    @Test
    void aJobIntoABlackholeTableCountsWhatItWrites(@TempDir Path dataDirectory)
    {
        kafka.createTopic("to_blackhole", 4);
        produce("to_blackhole", 0, 2000);
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            run(session, "CREATE TABLE kafka.\"default\".to_blackhole " + COLUMNS + " WITH ('topic' = 'to_blackhole', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset')");
            run(session, "CREATE CATALOG sink USING blackhole");
            run(session, "CREATE TABLE sink.\"default\".events " + COLUMNS);
            run(session, "CREATE STREAMING JOB to_blackhole WITH ('checkpoint.interval' = '200ms', 'parallelism' = '2') AS INSERT INTO sink.\"default\".events "
                    + "SELECT * FROM kafka.\"default\".to_blackhole WHERE amount > 100");
            long expected = (long) query(session, "SELECT count(*) FROM kafka.\"default\".to_blackhole WHERE amount > 100").get(0).get(0);
            assertThat(expected).isBetween(1L, 1999L);
            await(() -> (long) query(session, "SHOW STREAMING JOBS").get(0).get(4) == expected);
            assertThat(count(session, "sink.\"default\".events")).isZero();
        }
        produce("to_blackhole", 2000, 1000);
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            long expected = (long) query(session, "SELECT count(*) FROM kafka.\"default\".to_blackhole WHERE amount > 100 AND event_id >= 2000").get(0).get(0);
            // the restarted job counts from its last checkpoint: at least the new rows, at most all of them
            await(() -> (long) query(session, "SHOW STREAMING JOBS").get(0).get(4) >= expected);
            run(session, "STOP STREAMING JOB to_blackhole");
            assertThat(query(session, "SHOW TABLES FROM sink.\"default\"")).containsExactly(List.of("events"));
            run(session, "DROP STREAMING JOB to_blackhole");
        }
    }

    private static EngineConfig config(Path dataDirectory)
    {
        return new EngineConfig(Map.of("ontul.data-dir", dataDirectory.toString()), Map.of(
                "kafka", Map.of("connector.name", "kafka", "kafka.bootstrap-servers", kafka.bootstrapServers()),
                "iceberg", Map.of("connector.name", "iceberg", "iceberg.warehouse", dataDirectory.resolve("warehouse").toString())));
    }

    private static void createTables(Session session, String topic, String sink)
    {
        run(session, "CREATE TABLE kafka.\"default\"." + topic + " " + COLUMNS + " WITH ('topic' = '" + topic + "', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset')");
        run(session, "CREATE SCHEMA IF NOT EXISTS iceberg.lake");
        run(session, "CREATE TABLE iceberg.lake." + sink + " " + COLUMNS);
    }

    private static double amount(int i)
    {
        return (i * 37 % 200) + 0.5;
    }

    private static long expectedCount(int from, int to)
    {
        long count = 0;
        for (int i = from; i < to; i++) {
            if (amount(i) > 100) {
                count++;
            }
        }
        return count;
    }

    private static void produce(String topic, int from, int count)
    {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            String value = "{\"event_id\": %d, \"category\": \"c%d\", \"amount\": %s, \"event_time\": \"2026-01-01T00:%02d:%02d.%03d\"}"
                    .formatted(i, i % 10, amount(i), i / 60 % 60, i % 60, i % 1000);
            records.add(new ProducerRecord<>(topic, i % 4 % partitions(topic), null, value));
        }
        kafka.produce(records);
    }

    private static int partitions(String topic)
    {
        return topic.equals("lifecycle") || topic.equals("flight") ? 2 : 4;
    }

    private static long count(Session session, String table)
    {
        return (long) query(session, "SELECT count(*) FROM " + table).get(0).get(0);
    }

    private static void run(Session session, String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            ResultRows.drain(result);
        }
    }

    private static List<List<Object>> query(Session session, String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            return ResultRows.drain(result);
        }
    }

    private static void assertError(Session session, String sql, ErrorCode code, String message)
    {
        assertThatThrownBy(() -> run(session, sql))
                .isInstanceOfSatisfying(OntulException.class, e -> {
                    assertThat(e.code()).isEqualTo(code);
                    if (message != null) {
                        assertThat(e.getMessage()).isEqualTo(message);
                    }
                });
    }

    private static void await(BooleanSupplier condition)
    {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 30 s");
            }
            sleep(50);
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
