package io.ontul.bench.streaming;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;

/**
 * Child JVM of {@link NexmarkBenchmark}: the Ontul side. An {@link Engine} in this process with a
 * {@code kafka} catalog on the parent's broker and an {@code iceberg} catalog in a temporary
 * directory; the Kafka tables {@code nexmark} and {@code nexmark_warmup}
 * ({@link NexmarkEvents#ONTUL_COLUMNS}, watermark 4 s behind {@code date_time}). Per query: one
 * warm-up job over the warm-up topic, then one measured job: creates the Iceberg sink table and
 * the streaming job (checkpoints every {@code --interval}, {@code --parallelism}, its memory budget
 * {@code --max-memory}), waits until {@code records_in} reaches the topic's records, stops the job
 * (its final checkpoint commits the rest) and prints a {@link ResultLine} with the process CPU
 * time, the wall time from just before {@code CREATE STREAMING JOB} to the end of
 * {@code STOP STREAMING JOB}, and the check over what the table holds. A job that failed on the
 * way (and restarted from a checkpoint) is reported as failed.
 */
public final class OntulNexmarkRun
{
    private OntulNexmarkRun() {}

    public static void main(String[] args)
            throws Exception
    {
        ChildArguments arguments = ChildArguments.parse(args);
        List<NexmarkQuery> queries = NexmarkBenchmark.queries(arguments.get("queries"));
        long records = arguments.getLong("records");
        long warmupRecords = arguments.getLong("warmup-records");
        long timeoutNanos = arguments.getLong("timeout-seconds") * 1_000_000_000L;

        Path directory = Files.createTempDirectory("ontul-nexmark-bench-");
        Map<String, Map<String, String>> catalogs = new LinkedHashMap<>();
        catalogs.put("kafka", Map.of("connector.name", "kafka", "kafka.bootstrap-servers", arguments.get("bootstrap")));
        String sinkCatalog = arguments.get("sink");
        catalogs.put("iceberg", Map.of("connector.name", "iceberg", "iceberg.warehouse", directory.resolve("warehouse").toString()));
        catalogs.put("blackhole", Map.of("connector.name", "blackhole"));
        try (Engine engine = Engine.create(new EngineConfig(Map.of("ontul.data-dir", directory.resolve("data").toString(), "ontul.security.allowed-paths", directory.toString()), catalogs))) {
            OntulStatements sql = new OntulStatements(engine.createSession("bench"));
            sql.run(kafkaTable("nexmark", arguments.get("topic")));
            sql.run(kafkaTable("nexmark_warmup", arguments.get("warmup-topic")));
            sql.run("CREATE SCHEMA " + sinkCatalog + ".nexmark");
            for (NexmarkQuery query : queries) {
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("query", query.id());
                String parallelism = arguments.get("parallelism");
                String maxMemory = arguments.get("max-memory");
                try {
                    Map<String, Object> warmup = measure(sql, sinkCatalog, query, "nexmark_warmup", query.id() + "_warmup", warmupRecords, arguments.get("interval"), parallelism, maxMemory, timeoutNanos);
                    Progress.log("ontul %s warm-up: %.1f s wall, %.1f CPU-s", query.id(), (long) warmup.get("wall_ns") / 1e9, (long) warmup.get("cpu_ns") / 1e9);
                    result.putAll(measure(sql, sinkCatalog, query, "nexmark", query.id(), records, arguments.get("interval"), parallelism, maxMemory, timeoutNanos));
                    Progress.log("ontul %s: %.1f s wall, %.1f CPU-s, %s rows out", query.id(), (long) result.get("wall_ns") / 1e9, (long) result.get("cpu_ns") / 1e9, result.get("out_rows"));
                }
                catch (RuntimeException e) {
                    Progress.log("ontul %s failed: %s", query.id(), e);
                    result.put("error", String.valueOf(e.getMessage()));
                }
                System.out.println(ResultLine.format(result));
                System.out.flush();
            }
        }
        finally {
            TemporaryDirectories.delete(directory);
        }
        System.exit(0);
    }

    private static String kafkaTable(String name, String topic)
    {
        return "CREATE TABLE kafka.\"default\"." + name + " (" + NexmarkEvents.ONTUL_COLUMNS + ") WITH ('topic' = '" + topic + "', 'format' = 'json', "
                + "'scan.startup.mode' = 'earliest-offset', 'watermark.column' = 'date_time', 'watermark.delay' = '4s')";
    }

    /**
     * Runs {@code query} as a job from Kafka table {@code source} into a new table of catalog
     * {@code sinkCatalog} (iceberg or blackhole) until it has read {@code records}; the fields of
     * its result line. Into blackhole the rows out are the job's count and there is no sum.
     */
    private static Map<String, Object> measure(OntulStatements sql, String sinkCatalog, NexmarkQuery query, String source, String suffix, long records, String interval,
            String parallelism, String maxMemory, long timeoutNanos)
            throws InterruptedException
    {
        String sink = sinkCatalog + ".nexmark." + suffix;
        sql.run("CREATE TABLE " + sink + " " + query.ontulColumns());
        String job = "nexmark_" + suffix;

        long cpuStart = ProcessCpu.nanos();
        long wallStart = System.nanoTime();
        sql.run("CREATE STREAMING JOB " + job + " WITH ('checkpoint.interval' = '" + interval + "', 'parallelism' = '" + parallelism + "', 'max-memory' = '" + maxMemory
                + "') AS INSERT INTO " + sink + " "
                + query.ontulSql("kafka.\"default\"." + source));
        try {
            sql.awaitRecords(job, records, wallStart + timeoutNanos);
            sql.run("STOP STREAMING JOB " + job);
            long cpu = ProcessCpu.nanos() - cpuStart;
            long wall = System.nanoTime() - wallStart;

            Map<String, Object> stopped = sql.job(job);
            if (stopped.get(OntulStatements.LAST_ERROR) != null) {
                // it restarted from a checkpoint on the way: the run measured more than the query
                throw new IllegalStateException("Streaming job " + job + " failed during the run and restarted: " + stopped.get(OntulStatements.LAST_ERROR));
            }
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("cpu_ns", cpu);
            result.put("wall_ns", wall);
            if (sinkCatalog.equals("blackhole")) {
                result.put("out_rows", OntulStatements.asLong(stopped.get(OntulStatements.RECORDS_OUT)));
            }
            else {
                List<Object> check = sql.query(query.ontulCheck(sink)).get(0);
                result.put("out_rows", OntulStatements.asLong(check.get(0)));
                result.put("check_sum", OntulStatements.asDouble(check.get(1)));
            }
            result.put("late", OntulStatements.asLong(stopped.get(OntulStatements.RECORDS_LATE)));
            result.put("checkpoints", OntulStatements.asLong(stopped.get(OntulStatements.LAST_CHECKPOINT_ID)));
            return result;
        }
        finally {
            sql.run("DROP STREAMING JOB IF EXISTS " + job);
        }
    }
}
