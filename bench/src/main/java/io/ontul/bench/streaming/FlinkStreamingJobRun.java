package io.ontul.bench.streaming;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * Child JVM of {@link StreamingBenchmark}: the Flink contender, on the local MiniCluster that
 * {@link StreamExecutionEnvironment} starts in this process for each job. The same pipeline as
 * Ontul's, in Flink SQL: a Kafka table (json, {@code WATERMARK FOR event_time AS event_time -
 * INTERVAL '1' SECOND}) read from the earliest offset and bounded at the latest offset, so the
 * job ends when it has read the pre-filled topic; the TUMBLE TVF aggregate; {@link CountingSink}.
 * Exactly-once checkpoints every {@code --interval} with the hashmap state backend and checkpoint
 * storage on local disk, or none ({@code --interval off}). One warm-up job over
 * {@code --warmup-topic} (not reported), then {@code --runs} jobs over {@code --topic}, each a fresh
 * job, MiniCluster and consumer group; prints a {@link ResultLine} with the process CPU time and
 * the wall time from just before planning the query to the end of the job.
 * <p>
 * Only this class and {@link CountingSink} use Flink: they run with target/flink-lib on the class
 * path, every other JVM of the benchmark without it.
 */
public final class FlinkStreamingJobRun
{
    /** A Kafka table of JSON records read from the earliest offset and bounded at the latest: name, columns, watermark column and delay, topic, servers, group. */
    private static final String KAFKA_TABLE = """
            CREATE TABLE %s (
              %s,
              WATERMARK FOR %s AS %3$s - INTERVAL '%d' SECOND
            ) WITH (
              'connector' = 'kafka',
              'topic' = '%s',
              'properties.bootstrap.servers' = '%s',
              'properties.group.id' = '%s',
              'scan.startup.mode' = 'earliest-offset',
              'scan.bounded.mode' = 'latest-offset',
              'format' = 'json',
              'json.timestamp-format.standard' = 'ISO-8601'
            )""";
    private static final String WINDOW_QUERY = "SELECT window_start, window_end, category, SUM(amount) AS total, COUNT(*) AS cnt "
            + "FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(event_time), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, category";

    private FlinkStreamingJobRun() {}

    public static void main(String[] args)
            throws Exception
    {
        ChildArguments arguments = ChildArguments.parse(args);
        int runs = arguments.getInt("runs");
        long records = arguments.getLong("records");
        long warmupRecords = arguments.getLong("warmup-records");
        Path directory = Files.createTempDirectory("flink-streaming-bench-");
        try {
            if (warmupRecords > 0) {
                Map<String, Object> warmup = measure(arguments, arguments.get("warmup-topic"), "warmup", directory);
                Progress.log("warm-up: %d records in %.1f s wall, %.1f CPU-s", warmupRecords, (long) warmup.get("wall_ns") / 1e9, (long) warmup.get("cpu_ns") / 1e9);
            }
            for (int run = 1; run <= runs; run++) {
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("run", run);
                result.putAll(measure(arguments, arguments.get("topic"), "r" + run, directory));
                System.out.println(ResultLine.format(result));
                System.out.flush();
                Progress.log("run %d: %d records in %.1f s wall, %.1f CPU-s", run, records, (long) result.get("wall_ns") / 1e9, (long) result.get("cpu_ns") / 1e9);
            }
        }
        finally {
            TemporaryDirectories.delete(directory);
        }
        System.exit(0);
    }

    /** Runs one bounded job over {@code topic} on a new MiniCluster; returns the fields of its result line. */
    private static Map<String, Object> measure(ChildArguments arguments, String topic, String suffix, Path directory)
            throws Exception
    {
        Configuration configuration = miniCluster(arguments.get("parallelism"), arguments.get("interval"), directory.resolve("checkpoints-" + suffix));
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment(configuration);
        StreamTableEnvironment tables = StreamTableEnvironment.create(environment);
        tables.executeSql(kafkaTable("events", "event_id BIGINT, category STRING, amount DOUBLE, event_time TIMESTAMP(3)", "event_time", 1, topic, arguments.get("bootstrap"),
                "flink-bench-" + suffix));
        CountingSink.reset();

        long cpuStart = ProcessCpu.nanos();
        long wallStart = System.nanoTime();
        Table windows = tables.sqlQuery(WINDOW_QUERY);
        tables.toDataStream(windows).sinkTo(new CountingSink("cnt", "total")).name("counting sink");
        environment.execute("streaming-bench-" + suffix);
        long cpu = ProcessCpu.nanos() - cpuStart;
        long wall = System.nanoTime() - wallStart;

        Map<String, Object> result = new LinkedHashMap<>();
        // every record read lands in one window's cnt unless it is late (then the check fails)
        result.put("records_in", CountingSink.countSum());
        result.put("cpu_ns", cpu);
        result.put("wall_ns", wall);
        result.put("out_rows", CountingSink.rows());
        result.put("cnt_sum", CountingSink.countSum());
        result.put("total_sum", CountingSink.totalSum());
        result.put("checkpoints", CountingSink.checkpoints());
        return result;
    }

    /** The DDL of a bounded Kafka table: JSON records from the earliest offset to the latest, the watermark {@code delaySeconds} behind {@code timeColumn}. */
    static String kafkaTable(String name, String columns, String timeColumn, int delaySeconds, String topic, String bootstrapServers, String groupId)
    {
        return KAFKA_TABLE.formatted(name, columns, timeColumn, delaySeconds, topic, bootstrapServers, groupId);
    }

    /**
     * The configuration of a job's local MiniCluster: its endpoints on the loopback interface, the
     * hashmap state backend, exactly-once checkpoints every {@code interval} into
     * {@code checkpoints} (none for {@link StreamingContender#OFF}).
     */
    static Configuration miniCluster(String parallelism, String interval, Path checkpoints)
    {
        Configuration configuration = new Configuration();
        configuration.setString("parallelism.default", parallelism);
        configuration.setString("rest.bind-address", "127.0.0.1");
        configuration.setString("rest.address", "127.0.0.1");
        configuration.setString("rest.port", "0");
        configuration.setString("jobmanager.bind-host", "127.0.0.1");
        configuration.setString("taskmanager.bind-host", "127.0.0.1");
        configuration.setString("taskmanager.host", "127.0.0.1");
        configuration.set(StateBackendOptions.STATE_BACKEND, "hashmap");
        if (!interval.equals(StreamingContender.OFF)) {
            configuration.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, parseDuration(interval));
            configuration.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
            configuration.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
            configuration.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
        }
        return configuration;
    }

    /** "10s", "500ms", "1h" as a Duration. */
    static Duration parseDuration(String text)
    {
        String value = text.trim();
        if (value.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)));
        }
        long amount = Long.parseLong(value.substring(0, value.length() - 1));
        return switch (value.charAt(value.length() - 1)) {
            case 's' -> Duration.ofSeconds(amount);
            case 'm' -> Duration.ofMinutes(amount);
            case 'h' -> Duration.ofHours(amount);
            default -> throw new IllegalArgumentException("Bad duration " + text + ": use ms, s, m or h");
        };
    }
}
