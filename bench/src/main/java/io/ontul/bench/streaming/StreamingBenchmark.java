package io.ontul.bench.streaming;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import io.ontul.catalog.jdbc.testing.TestingPostgres;
import io.ontul.catalog.kafka.testing.EmbeddedKafka;

/**
 * Streaming benchmark of the pipeline, Kafka → 10 s tumbling SUM/COUNT by 100 categories
 * → Iceberg or PostgreSQL, on Ontul and on Flink 2.2.1's MiniCluster:
 * <ol>
 * <li>this JVM starts an in-process Kafka broker (and an embedded PostgreSQL when a contender
 * writes to it) and pre-fills topic {@code events} ({@link EventRecords});</li>
 * <li>each contender runs in a child JVM of its own ({@link ChildJvm}), which reads the whole
 * topic {@code --runs} times and reports its own process CPU time: input rows per CPU-second,
 * with exactly-once checkpoints every 10 s and with them off; the window rows each wrote are
 * checked against {@link ExpectedWindows};</li>
 * <li>end-to-end latency: {@link OntulLatencyRun} with a live producer;</li>
 * <li>recovery after {@code kill -9} of the server process: {@link OntulRecoveryRun}.</li>
 * </ol>
 * Run it with {@code bench/run-streaming.sh}; see {@link StreamingBenchmarkOptions#USAGE}.
 */
public final class StreamingBenchmark
{
    private static final String TOPIC = "events";
    private static final String WARMUP_TOPIC = "warmup";
    private static final String LIVE_TOPIC = "live";
    private static final String LATENCY_INTERVAL = "1s";
    private static final String RECOVERY_TOPIC = "recovery";
    private static final String RECOVERY_INTERVAL = "10s";

    private final StreamingBenchmarkOptions options;
    private final String command;

    private StreamingBenchmark(StreamingBenchmarkOptions options, String command)
    {
        this.options = requireNonNull(options, "options is null");
        this.command = requireNonNull(command, "command is null");
    }

    public static void main(String[] args)
            throws Exception
    {
        if (Stream.of(args).anyMatch(arg -> arg.equals("--help") || arg.equals("-h"))) {
            System.out.println(StreamingBenchmarkOptions.USAGE);
            return;
        }
        StreamingBenchmarkOptions options;
        try {
            options = StreamingBenchmarkOptions.parse(args);
        }
        catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(StreamingBenchmarkOptions.USAGE);
            System.exit(2);
            return;
        }
        String command = System.getProperty("ontul.bench.command", "java " + StreamingBenchmark.class.getName() + " " + String.join(" ", args));
        new StreamingBenchmark(options, command).run();
        System.exit(0);
    }

    private void run()
            throws Exception
    {
        String started = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        ChildJvm children = new ChildJvm(options.childHeap());
        Prefill prefill;
        ExpectedWindows expected;
        List<ContenderResult> results;
        Measured latency;
        Measured recovery;
        Progress.log("Starting the Kafka broker");
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            kafka.createTopic(TOPIC, options.partitions());
            prefill = prefill(kafka.bootstrapServers(), TOPIC, options.rows());
            kafka.createTopic(WARMUP_TOPIC, options.partitions());
            if (options.warmupRows() > 0) {
                prefill(kafka.bootstrapServers(), WARMUP_TOPIC, options.warmupRows());
            }
            expected = ExpectedWindows.of(options.rows());
            Progress.log("Expected: %,d window rows", expected.rows());
            results = runContenders(kafka, children);
            latency = options.latencyWindows() > 0 ? latency(kafka, children) : Measured.skipped();
            recovery = options.recoverySeconds() > 0 ? recovery(kafka) : Measured.skipped();
        }

        String markdown = new StreamingReport(options, command, started, prefill, expected, results, latency, recovery).markdown();
        System.out.println();
        System.out.print(markdown);
        if (options.out().isPresent()) {
            Files.writeString(options.out().get(), "\n" + markdown, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            System.out.println();
            System.out.println("Appended to " + options.out().get());
        }
    }

    /** Each contender in its child JVM, one after the other; PostgreSQL runs while they do, when one writes to it. */
    private List<ContenderResult> runContenders(EmbeddedKafka kafka, ChildJvm children)
            throws InterruptedException, IOException
    {
        TestingPostgres postgres = null;
        if (options.needsPostgres()) {
            Progress.log("Starting PostgreSQL");
            postgres = TestingPostgres.start();
            postgres.execute("CREATE SCHEMA bench");
        }
        try {
            List<ContenderResult> results = new ArrayList<>();
            for (StreamingContender contender : options.contenders()) {
                results.add(runContender(contender, kafka, children, postgres));
            }
            return results;
        }
        finally {
            if (postgres != null) {
                postgres.close();
            }
        }
    }

    private ContenderResult runContender(StreamingContender contender, EmbeddedKafka kafka, ChildJvm children, TestingPostgres postgres)
            throws InterruptedException, IOException
    {
        Progress.log("%s: %s", contender.id(), contender.description());
        long records = options.rows() + options.partitions();
        // generous: even 50,000 rows per second and a slow start fit
        long timeoutSeconds = 180 + (options.runs() + 1) * (records / 50_000 + 60);
        List<String> arguments = new ArrayList<>(List.of(
                "--contender", contender.id(),
                "--bootstrap", kafka.bootstrapServers(),
                "--topic", TOPIC,
                "--records", String.valueOf(records),
                "--warmup-topic", WARMUP_TOPIC,
                "--warmup-records", String.valueOf(options.warmupRows() == 0 ? 0 : options.warmupRows() + options.partitions()),
                "--runs", String.valueOf(options.runs()),
                "--interval", contender.childInterval(),
                "--parallelism", String.valueOf(contender.parallelism()),
                "--sink", contender.sink(),
                "--timeout-seconds", String.valueOf(timeoutSeconds)));
        if (contender.sink().equals("postgres")) {
            arguments.addAll(List.of("--pg-url", postgres.jdbcUrl(), "--pg-user", postgres.user(), "--pg-password", postgres.password()));
        }
        try {
            List<ContenderRun> runs = children.run(contender.mainClass(), contender.flink(), arguments, timeoutSeconds + 60).stream()
                    .map(ContenderRun::of)
                    .toList();
            return new ContenderResult(contender, runs, runs.isEmpty() ? Optional.of("no run reported") : Optional.empty());
        }
        catch (IllegalStateException e) {
            Progress.log("%s failed: %s", contender.id(), e.getMessage());
            return new ContenderResult(contender, List.of(), Optional.of(e.getMessage()));
        }
    }

    private Measured latency(EmbeddedKafka kafka, ChildJvm children)
            throws InterruptedException, IOException
    {
        kafka.createTopic(LIVE_TOPIC, options.partitions());
        Progress.log("Latency: Ontul → Iceberg, checkpoints every %s, %,d events/s", LATENCY_INTERVAL, options.latencyRate());
        try {
            List<Map<String, String>> lines = children.run(OntulLatencyRun.class.getName(), false, List.of(
                    "--bootstrap", kafka.bootstrapServers(),
                    "--topic", LIVE_TOPIC,
                    "--partitions", String.valueOf(options.partitions()),
                    "--rate", String.valueOf(options.latencyRate()),
                    "--windows", String.valueOf(options.latencyWindows()),
                    "--interval", LATENCY_INTERVAL), (options.latencyWindows() + 10) * 10L + 180);
            return lines.isEmpty() ? Measured.failed("no result reported") : Measured.of(lines.get(0));
        }
        catch (IllegalStateException e) {
            Progress.log("Latency run failed: %s", e.getMessage());
            return Measured.failed(e.getMessage());
        }
    }

    private Measured recovery(EmbeddedKafka kafka)
    {
        kafka.createTopic(RECOVERY_TOPIC, options.partitions());
        Progress.log("Recovery: Ontul server process → Iceberg, checkpoints every %s, %,d events/s, kill -9 after %d s", RECOVERY_INTERVAL, options.latencyRate(), options.recoverySeconds());
        try {
            return Measured.of(new OntulRecoveryRun(kafka.bootstrapServers(), RECOVERY_TOPIC, options.partitions(), options.latencyRate(), RECOVERY_INTERVAL,
                    options.recoverySeconds()).run());
        }
        catch (Exception e) {
            Progress.log("Recovery run failed: %s", e);
            return Measured.failed(String.valueOf(e.getMessage()));
        }
    }

    /** Sends the pre-filled events and the closing ones, round robin over the partitions, and waits until all are acknowledged. */
    private Prefill prefill(String bootstrapServers, String topic, long rows)
            throws IOException
    {
        EventRecords events = new EventRecords();
        long start = System.nanoTime();
        long bytes = TopicFiller.fill(bootstrapServers, topic, options.partitions(), rows, events::prefilled, partition -> events.closing(rows, partition));
        long nanos = System.nanoTime() - start;
        Progress.log("Pre-filled in %.1f s", nanos / 1e9);
        return new Prefill(rows + options.partitions(), bytes / rows, nanos);
    }

    record Prefill(long records, long averageBytes, long nanos) {}
}
