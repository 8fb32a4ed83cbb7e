package io.ontul.bench.streaming;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;

/**
 * Child JVM of {@link StreamingBenchmark}: end-to-end latency of the Ontul → Iceberg job. A
 * producer thread sends {@code --rate} events per second to the empty topic {@code --topic}, round
 * robin over its partitions, each with the wall-clock time (UTC) as its event time, and notes per
 * 10 s window when the broker acknowledged the window's last event. The job runs with
 * {@code --interval} checkpoints; the main thread polls {@code SELECT max(window_end)} on the sink
 * every {@value #POLL_MILLIS} ms, and when it grows, each window that became visible yields one
 * latency: the time it became visible minus the acknowledgement of its last event. The first
 * windows (the partial one the producer starts in and one more) are not measured; then
 * {@code --windows} windows are.
 */
public final class OntulLatencyRun
{
    private static final long POLL_MILLIS = 100;
    private static final long WINDOW = EventRecords.WINDOW_MILLIS;

    private OntulLatencyRun() {}

    public static void main(String[] args)
            throws Exception
    {
        ChildArguments arguments = ChildArguments.parse(args);
        String bootstrap = arguments.get("bootstrap");
        String topic = arguments.get("topic");
        int partitions = arguments.getInt("partitions");
        int rate = arguments.getInt("rate");
        int windows = arguments.getInt("windows");
        String interval = arguments.get("interval");

        Path directory = Files.createTempDirectory("ontul-latency-bench-");
        Map<String, Map<String, String>> catalogs = new LinkedHashMap<>();
        catalogs.put("kafka", Map.of("connector.name", "kafka", "kafka.bootstrap-servers", bootstrap));
        catalogs.put("iceberg", Map.of("connector.name", "iceberg", "iceberg.warehouse", directory.resolve("warehouse").toString()));
        List<Long> latencies = new ArrayList<>();
        long produced;
        try (LiveProducer producer = new LiveProducer(bootstrap, topic, partitions, rate);
                Engine engine = Engine.create(new EngineConfig(Map.of("ontul.data-dir", directory.resolve("data").toString(), "ontul.security.allowed-paths", directory.toString()), catalogs))) {
            OntulStatements sql = new OntulStatements(engine.createSession("bench"));
            sql.run(OntulStatements.kafkaTable("live", topic));
            sql.run("CREATE SCHEMA iceberg.bench");
            sql.run("CREATE TABLE iceberg.bench.latency " + OntulStatements.WINDOW_COLUMNS);
            sql.run("CREATE STREAMING JOB latency WITH ('checkpoint.interval' = '" + interval + "') AS INSERT INTO iceberg.bench.latency "
                    + OntulStatements.WINDOW_QUERY.formatted("kafka.\"default\".live"));

            long started = System.currentTimeMillis();
            // the window the producer starts in is partial, the next one is a warm-up
            long measuredFrom = (Math.floorDiv(started, WINDOW) + 2) * WINDOW;
            producer.start();
            Progress.log("latency: producing %,d events/s; measuring %d windows from %s (about %d s)", rate, windows,
                    LocalDateTime.ofEpochSecond(measuredFrom / 1000, 0, ZoneOffset.UTC), (measuredFrom - started) / 1000 + windows * WINDOW / 1000 + 3);

            long deadline = measuredFrom + (windows + 6) * WINDOW + 60_000;
            long visibleEnd = Long.MIN_VALUE;
            while (latencies.size() < windows) {
                producer.checkHealthy();
                if (System.currentTimeMillis() > deadline) {
                    Map<String, Object> job = sql.job("latency");
                    throw new IllegalStateException("Only " + latencies.size() + " of " + windows + " windows became visible in time; job " + job);
                }
                List<Object> visible = sql.query("SELECT count(*), max(window_end) FROM iceberg.bench.latency").get(0);
                long now = System.currentTimeMillis();
                // count first: with -Darrow.enable_null_check_for_get=false a NULL maximum does not read as null
                if (OntulStatements.asLong(visible.get(0)) > 0) {
                    long end = ((LocalDateTime) visible.get(1)).toInstant(ZoneOffset.UTC).toEpochMilli();
                    if (end > visibleEnd) {
                        long first = visibleEnd == Long.MIN_VALUE ? end : visibleEnd + WINDOW;
                        for (long windowEnd = first; windowEnd <= end && latencies.size() < windows; windowEnd += WINDOW) {
                            Long acknowledged = producer.lastAcknowledged(windowEnd);
                            if (windowEnd - WINDOW >= measuredFrom && acknowledged != null) {
                                latencies.add(now - acknowledged);
                                Progress.log("latency: window ending %s visible %d ms after its last event", LocalDateTime.ofEpochSecond(windowEnd / 1000, 0, ZoneOffset.UTC).toLocalTime(), now - acknowledged);
                            }
                        }
                        visibleEnd = end;
                    }
                }
                Thread.sleep(POLL_MILLIS);
            }
            producer.stop();
            produced = producer.sent();
            sql.run("STOP STREAMING JOB latency");
            sql.run("DROP STREAMING JOB latency");
        }
        finally {
            TemporaryDirectories.delete(directory);
        }

        List<Long> sorted = latencies.stream().sorted().toList();
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("windows", sorted.size());
        result.put("p50_ms", percentile(sorted, 0.50));
        result.put("p99_ms", percentile(sorted, 0.99));
        result.put("min_ms", sorted.get(0));
        result.put("max_ms", sorted.get(sorted.size() - 1));
        result.put("produced", produced);
        result.put("latencies_ms", latencies.stream().map(String::valueOf).collect(Collectors.joining(",")));
        System.out.println(ResultLine.format(result));
        System.out.flush();
        System.exit(0);
    }

    /** Nearest rank: the smallest value with at least {@code fraction} of the values at or below it. */
    static long percentile(List<Long> sorted, double fraction)
    {
        int rank = (int) Math.ceil(fraction * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }
}
