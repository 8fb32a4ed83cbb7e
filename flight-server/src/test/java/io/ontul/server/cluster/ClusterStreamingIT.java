package io.ontul.server.cluster;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.catalog.jdbc.testing.TestingPostgres;
import io.ontul.catalog.kafka.testing.EmbeddedKafka;
import io.ontul.server.testing.TestCluster;

/**
 * Streaming jobs on a cluster of real processes, exactly-once across deaths: a coordinator and
 * three workers that share one PostgreSQL metadata store (the Kafka table's definition), one
 * checkpoint folder and one key folder, with the same catalog files. Two jobs of parallelism 4
 * aggregate the crash tests' events into 10 s windows, one into Iceberg, one into PostgreSQL
 * (append mode, so a duplicate would be an extra row): their tasks run on all three workers (task
 * index i on the i-th worker, round) and the shuffle crosses between them. A worker is killed
 * with SIGKILL at a random moment five times (the jobs go on with the two left, then the worker
 * comes back after a random pause, sometimes within the worker timeout), the coordinator once;
 * both sinks end up with exactly the windows computed here, which the batch query returns too.
 */
class ClusterStreamingIT
{
    private static EmbeddedKafka kafka;
    private static TestingPostgres postgres;
    private static TestCluster cluster;

    @BeforeAll
    static void setUp(@TempDir Path directory)
            throws Exception
    {
        kafka = EmbeddedKafka.start();
        postgres = TestingPostgres.start();
        kafka.createTopic(TOPIC, PARTITIONS);
        postgres.execute("CREATE SCHEMA crash",
                "CREATE TABLE crash.window_summary (window_start TIMESTAMP(3), window_end TIMESTAMP(3), category VARCHAR(10), total DOUBLE PRECISION, cnt BIGINT)");
        Path shared = directory.resolve("shared");
        Path warehouse = shared.resolve("warehouse");
        Files.createDirectories(warehouse);
        Map<String, String> properties = Map.of(
                "ontul.metadata.url", postgres.jdbcUrl(),
                "ontul.metadata.user", postgres.user(),
                "ontul.metadata.password", postgres.password(),
                "ontul.exchange.base.dir", shared.resolve("exchange").toString(),
                "ontul.exchange.kms.key-dir", shared.resolve("kms").toString(),
                "ontul.security.allowed-paths", warehouse.toString());
        cluster = TestCluster.start(directory, 3, properties, Map.of(
                "kafka", Map.of("connector.name", "kafka", "kafka.bootstrap-servers", kafka.bootstrapServers()),
                "iceberg", Map.of("connector.name", "iceberg", "iceberg.warehouse", warehouse.toString()),
                "pg", postgres.catalogProperties()));
        cluster.awaitActiveWorkers(3);
    }

    @AfterAll
    static void tearDown()
    {
        for (AutoCloseable closeable : new AutoCloseable[] {cluster, kafka, postgres}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            }
            catch (Exception e) {
                // the next one still closes
            }
        }
    }

    @Test
    void windowsExactlyOnceAcrossWorkerAndCoordinatorDeaths()
            throws Exception
    {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        System.out.println("ClusterStreamingIT seed " + seed);
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            statement.execute(createKafkaTable());
            statement.execute("CREATE SCHEMA iceberg.lake");
            statement.execute("CREATE TABLE iceberg.lake.window_summary " + SUMMARY_COLUMNS);
            statement.execute("CREATE STREAMING JOB to_iceberg WITH ('checkpoint.interval' = '300ms', 'parallelism' = '4') AS INSERT INTO iceberg.lake.window_summary " + WINDOW_QUERY);
            statement.execute("CREATE STREAMING JOB to_postgres WITH ('checkpoint.interval' = '300ms', 'parallelism' = '4') AS INSERT INTO pg.crash.window_summary " + WINDOW_QUERY);
            // 8 tasks per job, on the three workers, none on the coordinator
            String coordinator = coordinatorId(statement);
            await(() -> nodes(statement, "to_iceberg").size() == 3 && nodes(statement, "to_postgres").size() == 3);
            assertThat(count(statement, "system.runtime.stream_tasks WHERE job = 'to_iceberg'")).isEqualTo(8);
            assertThat(nodes(statement, "to_iceberg")).doesNotContain(coordinator);
        }

        // five rounds: a chunk of events, then a worker dies at a random moment and comes back after a pause; the coordinator dies once too
        int produced = 0;
        for (int round = 0; round < 5; round++) {
            produce(kafka, produced, CHUNK);
            produced += CHUNK;
            sleep(300 + random.nextInt(2500));
            int victim = randomWorkerWithTasks(random);
            cluster.killWorker(victim);
            if (round == 1) {
                // the jobs go on with the two workers left
                try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
                    await(() -> count(statement, "system.runtime.stream_tasks WHERE job = 'to_iceberg'") == 8 && nodes(statement, "to_iceberg").size() == 2
                            && count(statement, "system.runtime.stream_tasks WHERE job = 'to_postgres'") == 8 && nodes(statement, "to_postgres").size() == 2);
                }
            }
            if (round == 2) {
                cluster.killCoordinator();
            }
            sleep(500 + random.nextInt(5500));
            if (round == 2) {
                cluster.restartCoordinator();
            }
            cluster.restartWorker(victim);
            cluster.awaitActiveWorkers(3);
        }
        produce(kafka, produced, EVENTS - produced);
        produceClosingEvents(kafka);

        List<List<Object>> expected = windowsComputedHere();
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            await(() -> count(statement, "iceberg.lake.window_summary") >= expected.size() && postgres.query("SELECT count(*) FROM crash.window_summary").get(0).get(0).equals((long) expected.size()));
            try (ResultSet jobs = statement.executeQuery("SHOW STREAMING JOBS")) {
                while (jobs.next()) {
                    assertThat(jobs.getString("state")).as(jobs.getString("name")).isEqualTo("RUNNING");
                    assertThat(jobs.getLong("records_late")).as(jobs.getString("name")).isZero();
                    // the job restarted for a lost worker (the reason stays as its last error)
                    assertThat(jobs.getString("last_error")).as(jobs.getString("name")).containsIgnoringCase("worker");
                }
            }
            statement.execute("STOP STREAMING JOB to_iceberg");
            statement.execute("STOP STREAMING JOB to_postgres");
            assertThat(rows(statement, "SELECT * FROM iceberg.lake.window_summary ORDER BY window_start, category")).isEqualTo(expected);
            assertThat(rows(statement, WINDOW_QUERY + " ORDER BY window_start, category")).as("the batch query over the Kafka table").isEqualTo(expected);
            assertThat(rows(postgres, "SELECT * FROM crash.window_summary ORDER BY window_start, category")).isEqualTo(expected);
        }
    }

    private static Set<String> nodes(Statement statement, String job)
    {
        Set<String> nodes = new TreeSet<>();
        try (ResultSet result = statement.executeQuery("SELECT node FROM system.runtime.stream_tasks WHERE job = '" + job + "'")) {
            while (result.next()) {
                nodes.add(result.getString(1));
            }
        }
        catch (SQLException e) {
            throw new AssertionError(e);
        }
        return nodes;
    }

    /** One of the workers that run tasks of the jobs now (once some do: a job may be between attempts), at random, by its index in the cluster. */
    private static int randomWorkerWithTasks(Random random)
    {
        List<Integer> candidates = new ArrayList<>();
        await(() -> {
            candidates.clear();
            candidates.addAll(workersWithTasks());
            return !candidates.isEmpty();
        });
        return candidates.get(random.nextInt(candidates.size()));
    }

    private static List<Integer> workersWithTasks()
    {
        List<Integer> workers = new ArrayList<>();
        try (Connection connection = cluster.connect(); Statement statement = connection.createStatement()) {
            Set<String> running = new TreeSet<>(nodes(statement, "to_iceberg"));
            running.addAll(nodes(statement, "to_postgres"));
            for (int index = 0; index < 3; index++) {
                try (ResultSet node = statement.executeQuery("SELECT node_id FROM system.runtime.nodes WHERE address LIKE '%:" + cluster.worker(index).port() + "'")) {
                    if (node.next() && running.contains(node.getString(1))) {
                        workers.add(index);
                    }
                }
            }
        }
        catch (SQLException e) {
            throw new AssertionError(e);
        }
        return workers;
    }

    private static String coordinatorId(Statement statement)
    {
        try (ResultSet result = statement.executeQuery("SELECT node_id FROM system.runtime.nodes WHERE role = 'coordinator'")) {
            result.next();
            return result.getString(1);
        }
        catch (SQLException e) {
            throw new AssertionError(e);
        }
    }
}
