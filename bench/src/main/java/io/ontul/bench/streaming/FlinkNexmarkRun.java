package io.ontul.bench.streaming;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * Child JVM of {@link NexmarkBenchmark}: the Flink side, on the local MiniCluster that
 * {@link StreamExecutionEnvironment} starts in this process for each job. The Kafka table
 * {@code nexmark} ({@link NexmarkEvents#FLINK_COLUMNS}, json, watermark 4 s behind
 * {@code date_time}) read from the earliest offset and bounded at the latest, so each job ends
 * when it has read the topic; the view {@code bid} over it, as the Nexmark repository defines it;
 * each query into {@link CountingSink} (Nexmark's own runs use the blackhole connector), with the
 * mini-batch and split-distinct settings of Nexmark's Flink configuration. Exactly-once
 * checkpoints every {@code --interval} with the hashmap state backend on local disk. Per query: one
 * warm-up job over {@code --warmup-topic}, then one measured job over {@code --topic}, each with a
 * fresh MiniCluster and consumer group, cancelled after {@code --timeout-seconds}; prints a
 * {@link ResultLine} per query with the process CPU time and the wall time from just before
 * planning the query to the end of the job.
 */
public final class FlinkNexmarkRun
{
    private static final String BID_VIEW = "CREATE VIEW bid AS SELECT auction, bidder, price, channel, url, date_time, extra FROM nexmark WHERE event_type = 2";

    private FlinkNexmarkRun() {}

    public static void main(String[] args)
            throws Exception
    {
        ChildArguments arguments = ChildArguments.parse(args);
        List<NexmarkQuery> queries = NexmarkBenchmark.queries(arguments.get("queries"));
        Path directory = Files.createTempDirectory("flink-nexmark-bench-");
        try {
            for (NexmarkQuery query : queries) {
                Map<String, Object> result = new LinkedHashMap<>();
                result.put("query", query.id());
                try {
                    Map<String, Object> warmup = measure(arguments, query, arguments.get("warmup-topic"), query.id() + "-warmup", directory);
                    Progress.log("flink %s warm-up: %.1f s wall, %.1f CPU-s", query.id(), (long) warmup.get("wall_ns") / 1e9, (long) warmup.get("cpu_ns") / 1e9);
                    result.putAll(measure(arguments, query, arguments.get("topic"), query.id(), directory));
                    Progress.log("flink %s: %.1f s wall, %.1f CPU-s, %s rows out", query.id(), (long) result.get("wall_ns") / 1e9, (long) result.get("cpu_ns") / 1e9, result.get("out_rows"));
                }
                catch (Exception e) {
                    Progress.log("flink %s failed: %s", query.id(), e);
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

    private static Map<String, Object> measure(ChildArguments arguments, NexmarkQuery query, String topic, String suffix, Path directory)
            throws Exception
    {
        Configuration configuration = FlinkStreamingJobRun.miniCluster(arguments.get("parallelism"), arguments.get("interval"), directory.resolve("checkpoints-" + suffix));
        StreamExecutionEnvironment environment = StreamExecutionEnvironment.getExecutionEnvironment(configuration);
        StreamTableEnvironment tables = StreamTableEnvironment.create(environment);
        // as Nexmark's own configuration of Flink sets them
        tables.getConfig().set("table.exec.mini-batch.enabled", "true");
        tables.getConfig().set("table.exec.mini-batch.allow-latency", "2s");
        tables.getConfig().set("table.exec.mini-batch.size", "50000");
        tables.getConfig().set("table.optimizer.distinct-agg.split.enabled", "true");
        tables.executeSql(FlinkStreamingJobRun.kafkaTable("nexmark", NexmarkEvents.FLINK_COLUMNS, "date_time", 4, topic, arguments.get("bootstrap"), "flink-nexmark-" + suffix));
        tables.executeSql(BID_VIEW);
        CountingSink.reset();

        long cpuStart = ProcessCpu.nanos();
        long wallStart = System.nanoTime();
        Table result = tables.sqlQuery(query.flinkSql());
        if (!result.getResolvedSchema().getColumnNames().contains(query.checkColumn())) {
            throw new IllegalStateException(query.id() + " has no column " + query.checkColumn());
        }
        tables.toDataStream(result).sinkTo(new CountingSink(null, query.checkColumn())).name("counting sink");
        JobClient job = environment.executeAsync("nexmark-" + suffix);
        long timeoutSeconds = arguments.getLong("timeout-seconds");
        try {
            job.getJobExecutionResult().get(timeoutSeconds, TimeUnit.SECONDS);
        }
        catch (TimeoutException e) {
            job.cancel().get();
            throw new IllegalStateException("the job did not finish within " + timeoutSeconds + " s (cancelled)");
        }
        long cpu = ProcessCpu.nanos() - cpuStart;
        long wall = System.nanoTime() - wallStart;

        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("cpu_ns", cpu);
        fields.put("wall_ns", wall);
        fields.put("out_rows", CountingSink.rows());
        fields.put("check_sum", CountingSink.totalSum());
        fields.put("checkpoints", CountingSink.checkpoints());
        return fields;
    }
}
