package io.ontul.bench.streaming;

import static java.util.Objects.requireNonNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;

/**
 * Child JVM of {@link StreamingBenchmark}: one Ontul contender. Creates an {@link Engine} in this
 * process with a {@code kafka} catalog on the parent's broker and an {@code iceberg} (warehouse
 * in a temporary directory) or {@code pg} (the parent's PostgreSQL) catalog. First one warm-up job
 * over topic {@code --warmup-topic} (not reported), then {@code --runs} times over {@code --topic}:
 * creates a sink table and the windowed streaming job, polls {@code SHOW STREAMING JOBS} until
 * {@code records_in} reaches {@code --records}, stops the job (its final checkpoint commits what
 * is left) and prints a {@link ResultLine} with the process CPU time and the wall time from just
 * before {@code CREATE STREAMING JOB} to the end of {@code STOP STREAMING JOB}, and what the sink
 * holds.
 */
public final class OntulStreamingJobRun
{
    private final OntulStatements sql;
    private final String sinkKind;
    private final String contender;
    private final String interval;
    private final String parallelism;
    private final long timeoutNanos;

    private OntulStreamingJobRun(OntulStatements sql, String sinkKind, String contender, String interval, String parallelism, long timeoutNanos)
    {
        this.sql = requireNonNull(sql, "sql is null");
        this.sinkKind = requireNonNull(sinkKind, "sinkKind is null");
        this.contender = requireNonNull(contender, "contender is null");
        this.interval = requireNonNull(interval, "interval is null");
        this.parallelism = requireNonNull(parallelism, "parallelism is null");
        this.timeoutNanos = timeoutNanos;
    }

    public static void main(String[] args)
            throws Exception
    {
        ChildArguments arguments = ChildArguments.parse(args);
        String sinkKind = arguments.get("sink");
        long records = arguments.getLong("records");
        long warmupRecords = arguments.getLong("warmup-records");
        int runs = arguments.getInt("runs");

        Path directory = Files.createTempDirectory("ontul-streaming-bench-");
        Map<String, Map<String, String>> catalogs = new LinkedHashMap<>();
        catalogs.put("kafka", Map.of("connector.name", "kafka", "kafka.bootstrap-servers", arguments.get("bootstrap")));
        switch (sinkKind) {
            case "iceberg" -> catalogs.put("iceberg", Map.of("connector.name", "iceberg", "iceberg.warehouse", directory.resolve("warehouse").toString()));
            case "postgres" -> catalogs.put("pg", Map.of("connector.name", "jdbc", "connection-url", arguments.get("pg-url"),
                    "connection-user", arguments.get("pg-user"), "connection-password", arguments.get("pg-password")));
            default -> throw new IllegalArgumentException("Unknown sink " + sinkKind);
        }
        try (Engine engine = Engine.create(new EngineConfig(Map.of("ontul.data-dir", directory.resolve("data").toString(), "ontul.security.allowed-paths", directory.toString()), catalogs))) {
            OntulStatements sql = new OntulStatements(engine.createSession("bench"));
            sql.run(OntulStatements.kafkaTable("events", arguments.get("topic")));
            sql.run(OntulStatements.kafkaTable("warmup", arguments.get("warmup-topic")));
            if (sinkKind.equals("iceberg")) {
                sql.run("CREATE SCHEMA iceberg.bench");
            }
            OntulStreamingJobRun runner = new OntulStreamingJobRun(sql, sinkKind, arguments.get("contender").replaceAll("[^a-z0-9]", "_"), arguments.get("interval"),
                    arguments.get("parallelism"), arguments.getLong("timeout-seconds") * 1_000_000_000L);
            if (warmupRecords > 0) {
                Map<String, Object> warmup = runner.measure("warmup", "warmup", warmupRecords);
                Progress.log("warm-up: %d records in %.1f s wall, %.1f CPU-s", warmupRecords, (long) warmup.get("wall_ns") / 1e9, (long) warmup.get("cpu_ns") / 1e9);
            }
            for (int run = 1; run <= runs; run++) {
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("run", run);
                result.putAll(runner.measure("events", "r" + run, records));
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

    /** Runs one job from Kafka table {@code source} into a new sink table until it has read {@code records}; returns the fields of its result line. */
    private Map<String, Object> measure(String source, String suffix, long records)
            throws InterruptedException
    {
        String sink = sinkKind.equals("iceberg") ? "iceberg.bench.windows_" + suffix : "pg.bench." + contender + "_" + suffix;
        sql.run("CREATE TABLE " + sink + " " + OntulStatements.WINDOW_COLUMNS);
        String job = "bench_" + suffix;

        long cpuStart = ProcessCpu.nanos();
        long wallStart = System.nanoTime();
        sql.run("CREATE STREAMING JOB " + job + " WITH ('checkpoint.interval' = '" + interval + "', 'parallelism' = '" + parallelism + "') AS INSERT INTO " + sink + " "
                + OntulStatements.WINDOW_QUERY.formatted("kafka.\"default\"." + source));
        sql.awaitRecords(job, records, wallStart + timeoutNanos);
        sql.run("STOP STREAMING JOB " + job);
        long cpu = ProcessCpu.nanos() - cpuStart;
        long wall = System.nanoTime() - wallStart;

        Map<String, Object> stopped = sql.job(job);
        List<Object> contents = sql.query("SELECT count(*), sum(cnt), sum(total) FROM " + sink).get(0);
        sql.run("DROP STREAMING JOB " + job);

        Map<String, Object> result = new LinkedHashMap<>();
        result.put("records_in", OntulStatements.asLong(stopped.get(OntulStatements.RECORDS_IN)));
        result.put("cpu_ns", cpu);
        result.put("wall_ns", wall);
        result.put("out_rows", OntulStatements.asLong(contents.get(0)));
        result.put("cnt_sum", OntulStatements.asLong(contents.get(1)));
        result.put("total_sum", OntulStatements.asDouble(contents.get(2)));
        result.put("late", OntulStatements.asLong(stopped.get(OntulStatements.RECORDS_LATE)));
        result.put("checkpoints", OntulStatements.asLong(stopped.get(OntulStatements.LAST_CHECKPOINT_ID)));
        return result;
    }
}
