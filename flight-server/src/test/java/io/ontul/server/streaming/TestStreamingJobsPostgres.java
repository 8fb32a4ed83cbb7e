package io.ontul.server.streaming;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.catalog.jdbc.testing.TestingPostgres;
import io.ontul.catalog.kafka.testing.EmbeddedKafka;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.stream.checkpoint.CrashPoints;
import io.ontul.engine.testing.ResultRows;
import io.ontul.server.testing.TcpRelay;

/**
 * A streaming job from a real Kafka broker (in-process KRaft) into a real PostgreSQL table
 * through the exactly-once JDBC sink: crashes between the checkpoint's completion and the sink's
 * commit, and abrupt engine closes, neither lose nor duplicate a row.
 */
class TestStreamingJobsPostgres
{
    private static final String SCHEMA = "stream_e2e";
    private static final String TABLE = SCHEMA + ".events";
    private static final String COLUMNS = "(event_id BIGINT, category VARCHAR, amount DOUBLE, event_time TIMESTAMP(3))";
    private static final String TOPIC = "pg_events";
    private static final int PARTITIONS = 4;

    private static EmbeddedKafka kafka;
    private static TestingPostgres postgres;

    @BeforeAll
    static void setUp()
    {
        kafka = EmbeddedKafka.start();
        postgres = TestingPostgres.shared();
        postgres.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE", "CREATE SCHEMA " + SCHEMA);
    }

    @AfterAll
    static void tearDown()
    {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void exactlyOnceIntoPostgresAcrossCrashes(@TempDir Path dataDirectory)
    {
        kafka.createTopic(TOPIC, PARTITIONS);
        int perRound = 3000;
        String jobId;
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            run(session, "CREATE TABLE kafka.\"default\"." + TOPIC + " " + COLUMNS + " WITH ('topic' = '" + TOPIC + "', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset')");
            run(session, "CREATE TABLE pg." + TABLE + " " + COLUMNS);
            run(session, "CREATE STREAMING JOB pg_job WITH ('checkpoint.interval' = '100ms') AS INSERT INTO pg." + TABLE
                    + " SELECT event_id, category, amount, event_time FROM kafka.\"default\"." + TOPIC + " WHERE amount > 100");
            jobId = query(session, "DESCRIBE STREAMING JOB pg_job").stream()
                    .filter(row -> row.get(0).equals("job_id"))
                    .map(row -> (String) row.get(1))
                    .findFirst()
                    .orElseThrow();
            produceAndCrash(perRound, 0, CrashPoints.AFTER_CHECKPOINT_COMPLETE);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            // resumes by itself: commits the pending checkpoint once, then reads on
            produceAndCrash(perRound, 1, CrashPoints.AFTER_CHECKPOINT_COMPLETE);
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            // closed abruptly between checkpoints, while it reads
            produceAndCrash(perRound, 2, null);
        }
        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < 4 * perRound; i++) {
            if (amount(i) > 100) {
                expected.add((long) i);
            }
        }
        try (Engine engine = Engine.create(config(dataDirectory))) {
            Session session = engine.createSession("admin");
            produce(3 * perRound, perRound);
            await(() -> count() >= expected.size());
            run(session, "STOP STREAMING JOB pg_job");
            List<Long> actual = postgres.query("SELECT event_id FROM " + TABLE + " ORDER BY event_id").stream()
                    .map(row -> (Long) row.get(0))
                    .toList();
            assertThat(actual).isEqualTo(expected);
            assertThat(postgres.query("SELECT count(*) FROM " + TABLE + " WHERE category IS NULL OR event_time IS NULL OR amount <= 100")).containsExactly(List.of(0L));
            assertThat(postgres.query("SELECT count(*) FROM public.ontul_stream_commits WHERE job_id = '" + jobId + "' AND sink = '" + TABLE + "'"))
                    .containsExactly(List.of(1L));
            run(session, "DROP STREAMING JOB pg_job");
        }
    }

    @Test
    void postgresDownDuringCommitsRetriesWithoutDuplicates(@TempDir Path dataDirectory)
    {
        String topic = "pg_outage";
        String table = SCHEMA + ".outage";
        kafka.createTopic(topic, 2);
        try (TcpRelay relay = new TcpRelay(postgres.port())) {
            Map<String, String> viaRelay = new HashMap<>(postgres.catalogProperties());
            viaRelay.put("connection-url", postgres.jdbcUrl().replace(":" + postgres.port() + "/", ":" + relay.port() + "/"));
            viaRelay.put("connection-pool.connection-timeout", "2s");
            EngineConfig config = new EngineConfig(Map.of("ontul.data-dir", dataDirectory.toString()), Map.of(
                    "kafka", Map.of("connector.name", "kafka", "kafka.bootstrap-servers", kafka.bootstrapServers()),
                    "pg", viaRelay));
            try (Engine engine = Engine.create(config)) {
                Session session = engine.createSession("admin");
                run(session, "CREATE TABLE kafka.\"default\"." + topic + " " + COLUMNS + " WITH ('topic' = '" + topic + "', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset')");
                run(session, "CREATE TABLE pg." + table + " " + COLUMNS);
                run(session, "CREATE STREAMING JOB outage_job WITH ('checkpoint.interval' = '100ms', 'restart.max-attempts' = '1000', 'restart.backoff' = '200ms') "
                        + "AS INSERT INTO pg." + table + " SELECT * FROM kafka.\"default\"." + topic);
                produceTo(topic, 0, 500);
                await(() -> count(table) == 500);

                // PostgreSQL unreachable: open connections dropped, new ones refused
                relay.refuse(true);
                relay.cut();
                produceTo(topic, 500, 500);
                await(() -> "RESTARTING".equals(query(session, "SHOW STREAMING JOBS").get(0).get(1)));
                assertThat((String) query(session, "SHOW STREAMING JOBS").get(0).get(14)).isNotNull();
                assertThat(count(table)).isEqualTo(500);

                relay.refuse(false);
                await(() -> count(table) == 1000);
                await(() -> "RUNNING".equals(query(session, "SHOW STREAMING JOBS").get(0).get(1)));
                run(session, "STOP STREAMING JOB outage_job");
                assertThat(postgres.query("SELECT count(*), count(DISTINCT event_id), min(event_id), max(event_id) FROM " + table))
                        .containsExactly(List.of(1000L, 1000L, 0L, 999L));
            }
        }
    }

    private static void produceTo(String topic, int from, int count)
    {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            records.add(new ProducerRecord<>(topic, i % 2, null, "{\"event_id\": %d, \"category\": \"c%d\", \"amount\": %s, \"event_time\": \"2026-01-01T00:00:00.000\"}"
                    .formatted(i, i % 10, amount(i))));
        }
        kafka.produce(records);
    }

    private static long count(String table)
    {
        return (long) postgres.query("SELECT count(*) FROM " + table).get(0).get(0);
    }

    /**
     * Produces the first half of round {@code round} and waits until the job commits some of it,
     * then produces the second half and crashes the job at {@code point} at once, so that the
     * checkpoint it dies in most likely holds rows (or lets the caller close the engine).
     */
    private static void produceAndCrash(int perRound, int round, String point)
    {
        long before = count();
        int half = perRound / 2;
        produce(round * perRound, half);
        await(() -> count() > before);
        produce(round * perRound + half, perRound - half);
        if (point != null) {
            System.setProperty(CrashPoints.PROPERTY, point);
            try {
                await(() -> System.getProperty(CrashPoints.PROPERTY) == null);
            }
            finally {
                System.clearProperty(CrashPoints.PROPERTY);
            }
        }
    }

    private static EngineConfig config(Path dataDirectory)
    {
        return new EngineConfig(Map.of("ontul.data-dir", dataDirectory.toString()), Map.of(
                "kafka", Map.of("connector.name", "kafka", "kafka.bootstrap-servers", kafka.bootstrapServers()),
                "pg", postgres.catalogProperties()));
    }

    private static double amount(int i)
    {
        return (i * 37 % 200) + 0.5;
    }

    private static void produce(int from, int count)
    {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            String value = "{\"event_id\": %d, \"category\": \"c%d\", \"amount\": %s, \"event_time\": \"2026-01-01T00:%02d:%02d.%03d\"}"
                    .formatted(i, i % 10, amount(i), i / 60 % 60, i % 60, i % 1000);
            records.add(new ProducerRecord<>(TOPIC, i % PARTITIONS, null, value));
        }
        kafka.produce(records);
    }

    private static long count()
    {
        return (long) postgres.query("SELECT count(*) FROM " + TABLE).get(0).get(0);
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

    private static void await(BooleanSupplier condition)
    {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 30 s");
            }
            try {
                Thread.sleep(50);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
