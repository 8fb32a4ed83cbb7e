package io.ontul.bench.streaming;

import io.ontul.bench.OntulServerProcess;
import static java.util.Objects.requireNonNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Recovery after {@code kill -9}: the Ontul server runs as its own process
 * ({@link OntulServerProcess}) with the Ontul → Iceberg job, checkpoints every {@code interval},
 * while a {@link LiveProducer} sends events with wall-clock event times. After
 * {@code secondsBeforeKill} the server is killed with SIGKILL and started again at once on the
 * same data directory, as a supervisor would; it resumes the job from its last checkpoint. Measured
 * from the kill: the server's ready line, the job RUNNING again, and the job caught up (its
 * watermark past the event time of the last event sent before the kill, less the 1 s delay: it has
 * read again everything since its last checkpoint and all the kill interrupted). Then the producer
 * stops, closing events fire every window, and the table must hold exactly the windows of every
 * event sent (none lost, none twice).
 */
final class OntulRecoveryRun
{
    private static final long WATERMARK_DELAY_MILLIS = 1000;

    private final String bootstrapServers;
    private final String topic;
    private final int partitions;
    private final int rate;
    private final String interval;
    private final int secondsBeforeKill;

    OntulRecoveryRun(String bootstrapServers, String topic, int partitions, int rate, String interval, int secondsBeforeKill)
    {
        this.bootstrapServers = requireNonNull(bootstrapServers, "bootstrapServers is null");
        this.topic = requireNonNull(topic, "topic is null");
        this.partitions = partitions;
        this.rate = rate;
        this.interval = requireNonNull(interval, "interval is null");
        this.secondsBeforeKill = secondsBeforeKill;
    }

    /** The measured times in milliseconds, the checkpoints before the kill and the check of the table afterwards. */
    Map<String, Object> run()
            throws Exception
    {
        Path directory = Files.createTempDirectory("ontul-recovery-bench-");
        Path configuration = directory.resolve("conf");
        Files.createDirectories(configuration.resolve("catalogs"));
        Files.writeString(configuration.resolve("catalogs/kafka.properties"), "connector.name=kafka\nkafka.bootstrap-servers=" + bootstrapServers + "\n");
        Files.writeString(configuration.resolve("catalogs/iceberg.properties"), "connector.name=iceberg\niceberg.warehouse=" + directory.resolve("warehouse") + "\n");
        // the warehouse lies beside the data directory, not in it: let catalogs use the whole run's directory
        Files.writeString(configuration.resolve("ontul.properties"), "ontul.security.allowed-paths=" + directory + "\n");
        Path data = directory.resolve("data");
        Map<String, Object> result = new LinkedHashMap<>();
        OntulServerProcess server = null;
        try (LiveProducer producer = new LiveProducer(bootstrapServers, topic, partitions, rate)) {
            server = OntulServerProcess.start(configuration, data, OntulServerProcess.freePort(), directory.resolve("server-1.log"));
            server.awaitReady(120_000);
            try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
                statement.execute(OntulStatements.kafkaTable("recovery", topic));
                statement.execute("CREATE SCHEMA iceberg.bench");
                statement.execute("CREATE TABLE iceberg.bench.recovery " + OntulStatements.WINDOW_COLUMNS);
                statement.execute("CREATE STREAMING JOB recovery WITH ('checkpoint.interval' = '" + interval + "') AS INSERT INTO iceberg.bench.recovery "
                        + OntulStatements.WINDOW_QUERY.formatted("kafka.\"default\".recovery"));
                producer.start();
                Progress.log("recovery: producing %,d events/s for %d s, then kill -9", rate, secondsBeforeKill);
                Thread.sleep(secondsBeforeKill * 1000L);
                producer.checkHealthy();
                JobStatus before = JobStatus.of(statement);
                if (!before.state().equals("RUNNING")) {
                    throw new IllegalStateException("The job is " + before.state() + " before the kill");
                }
                result.put("checkpoints_before_kill", before.checkpoint());
            }

            long lastEventBeforeKill = producer.lastEventTime();
            long killed = System.currentTimeMillis();
            server.kill();
            server = OntulServerProcess.start(configuration, data, OntulServerProcess.freePort(), directory.resolve("server-2.log"));
            server.awaitReady(120_000);
            long ready = System.currentTimeMillis() - killed;
            long running = -1;
            long caughtUp = -1;
            try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
                long deadline = System.currentTimeMillis() + 120_000;
                while (caughtUp < 0) {
                    producer.checkHealthy();
                    if (System.currentTimeMillis() > deadline) {
                        throw new IllegalStateException("The job did not catch up within 120 s of the restart: " + JobStatus.of(statement));
                    }
                    JobStatus status = JobStatus.of(statement);
                    long now = System.currentTimeMillis();
                    if (running < 0 && status.state().equals("RUNNING")) {
                        running = now - killed;
                    }
                    if (status.watermark() >= lastEventBeforeKill - WATERMARK_DELAY_MILLIS) {
                        caughtUp = now - killed;
                    }
                    Thread.sleep(20);
                }
                Progress.log("recovery: ready %d ms, job RUNNING %d ms, caught up %d ms after the kill", ready, running, caughtUp);

                Thread.sleep(3000);
                producer.stop();
                producer.sendClosing(System.currentTimeMillis() + 86_400_000L);
                ExpectedWindows expected = producer.expected();
                String check = "";
                deadline = System.currentTimeMillis() + 60_000;
                while (System.currentTimeMillis() < deadline) {
                    check = contents(statement, expected);
                    if (check.equals("ok")) {
                        break;
                    }
                    Thread.sleep(500);
                }
                result.put("ready_ms", ready);
                result.put("running_ms", running);
                result.put("caught_up_ms", caughtUp);
                result.put("sent", producer.sent());
                result.put("check", check);
                statement.execute("STOP STREAMING JOB recovery");
            }
        }
        finally {
            if (server != null) {
                server.close();
            }
            TemporaryDirectories.delete(directory);
        }
        return result;
    }

    private static String contents(Statement statement, ExpectedWindows expected)
            throws SQLException
    {
        try (ResultSet rows = statement.executeQuery("SELECT count(*), sum(cnt), sum(total) FROM iceberg.bench.recovery")) {
            rows.next();
            return expected.check(rows.getLong(1), rows.getLong(2), rows.getDouble(3));
        }
    }

    private record JobStatus(String state, long checkpoint, long watermark)
    {
        static JobStatus of(Statement statement)
                throws SQLException
        {
            try (ResultSet rows = statement.executeQuery("SHOW STREAMING JOBS")) {
                if (!rows.next()) {
                    return new JobStatus("MISSING", 0, Long.MIN_VALUE);
                }
                return new JobStatus(rows.getString("state"), rows.getLong("last_checkpoint_id"), watermarkMillis(rows.getString("watermark")));
            }
        }

        private static long watermarkMillis(String text)
        {
            if (text == null || text.isEmpty()) {
                return Long.MIN_VALUE;
            }
            try {
                return Instant.parse(text).toEpochMilli();
            }
            catch (DateTimeParseException e) {
                return Long.MIN_VALUE;
            }
        }
    }
}
