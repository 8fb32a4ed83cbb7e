package io.ontul.bench.streaming;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import io.ontul.catalog.kafka.testing.EmbeddedKafka;

/**
 * The Nexmark benchmark's queries that need no join, on Ontul and on Flink 2.2.1's MiniCluster,
 * reading the same Kafka topic at the same parallelism:
 * <ol>
 * <li>this JVM starts an in-process Kafka broker and pre-fills topic {@code nexmark} with
 * {@link NexmarkEvents} (and a smaller {@code nexmark-warmup});</li>
 * <li>each engine runs in a child JVM of its own ({@link ChildJvm}: {@link FlinkNexmarkRun},
 * {@link OntulNexmarkRun}), which runs each query as a streaming job with exactly-once
 * checkpoints, first over the warm-up topic, then over the whole topic, and reports its process
 * CPU time per query;</li>
 * <li>the report gives input rows per CPU-second per query side by side, and checks that both
 * engines wrote the same number of rows with the same sum of a column.</li>
 * </ol>
 * Run it with {@code bench/run-nexmark.sh}; see {@link #USAGE}.
 */
public final class NexmarkBenchmark
{
    static final String USAGE = String.join(System.lineSeparator(),
            "Usage: bench/run-nexmark.sh [--events 4000000] [--warmup-events 400000] [--partitions 4] [--parallelism 1] [--queries all|q0,q1,...]",
            "                            [--engines flink,ontul] [--interval 10s] [--child-heap 8g] [--max-memory 6GB] [--ontul-sink blackhole|iceberg]",
            "                            [--out bench/RESULTS.md|none]",
            "  --events         Nexmark events pre-filled into topic 'nexmark' (plus one closing event per partition)",
            "  --warmup-events  events in topic 'nexmark-warmup', which each query reads once first in each engine, unmeasured",
            "  --partitions     partitions of the topics",
            "  --parallelism    of both engines' jobs",
            "  --queries        all, or a comma-separated list of " + NexmarkQuery.ALL.stream().map(NexmarkQuery::id).toList(),
            "  --engines        which child JVMs run",
            "  --interval       checkpoint interval of both engines (exactly-once)",
            "  --child-heap     -Xmx of each engine's JVM",
            "  --max-memory     Ontul's 'max-memory' of each job (its Arrow memory is off the heap, within -XX:MaxDirectMemorySize, which is -Xmx)",
            "  --ontul-sink     where Ontul's jobs write: blackhole (discarded and counted, as Flink's counting sink does) or iceberg (Parquet files)",
            "  --out            file the report section is appended to, or none to only print it");
    /** The field of the line that says an engine's JVM failed (the queries it reported before keep their lines). */
    static final String ENGINE_ERROR = "engine_error";
    private static final String TOPIC = "nexmark";
    private static final String WARMUP_TOPIC = "nexmark-warmup";

    private final Options options;
    private final String command;

    private NexmarkBenchmark(Options options, String command)
    {
        this.options = requireNonNull(options, "options is null");
        this.command = requireNonNull(command, "command is null");
    }

    public static void main(String[] args)
            throws Exception
    {
        if (Stream.of(args).anyMatch(arg -> arg.equals("--help") || arg.equals("-h"))) {
            System.out.println(USAGE);
            return;
        }
        Options options;
        try {
            options = Options.parse(args);
        }
        catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        String command = System.getProperty("ontul.bench.command", "java " + NexmarkBenchmark.class.getName() + " " + String.join(" ", args));
        new NexmarkBenchmark(options, command).run();
        System.exit(0);
    }

    /** The queries named by {@code ids}: "all" or a comma-separated list. */
    static List<NexmarkQuery> queries(String ids)
    {
        if (ids.equals("all")) {
            return NexmarkQuery.ALL;
        }
        return Arrays.stream(ids.split(","))
                .map(String::trim)
                .map(id -> NexmarkQuery.byId(id).orElseThrow(() -> new IllegalArgumentException("Unknown query " + id)))
                .toList();
    }

    private void run()
            throws Exception
    {
        String started = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        ChildJvm children = new ChildJvm(options.childHeap());
        Map<String, List<Map<String, String>>> results = new LinkedHashMap<>();
        long prefillNanos;
        long averageBytes;
        Progress.log("Starting the Kafka broker");
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            kafka.createTopic(TOPIC, options.partitions());
            kafka.createTopic(WARMUP_TOPIC, options.partitions());
            long start = System.nanoTime();
            averageBytes = prefill(kafka.bootstrapServers(), TOPIC, options.events());
            prefillNanos = System.nanoTime() - start;
            prefill(kafka.bootstrapServers(), WARMUP_TOPIC, options.warmupEvents());
            for (String engine : options.engines()) {
                results.put(engine, runEngine(engine, kafka, children));
            }
        }
        String markdown = new NexmarkReport(options, command, started, prefillNanos, averageBytes, results).markdown();
        System.out.println();
        System.out.print(markdown);
        if (options.out().isPresent()) {
            Files.writeString(options.out().get(), "\n" + markdown, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            System.out.println();
            System.out.println("Appended to " + options.out().get());
        }
    }

    private List<Map<String, String>> runEngine(String engine, EmbeddedKafka kafka, ChildJvm children)
            throws InterruptedException, IOException
    {
        boolean flink = engine.equals("flink");
        long records = options.events() + options.partitions();
        long perJob = 120 + (records + options.warmupEvents()) / 20_000;
        long timeoutSeconds = 120 + options.queries().size() * 2 * perJob;
        Progress.log("%s: %d queries, parallelism %d", engine, options.queries().size(), options.parallelism());
        List<Map<String, String>> lines = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        try {
            children.run(NexmarkBenchmark.class.getPackageName() + (flink ? ".FlinkNexmarkRun" : ".OntulNexmarkRun"), flink, List.of(
                    "--bootstrap", kafka.bootstrapServers(),
                    "--topic", TOPIC,
                    "--records", String.valueOf(records),
                    "--warmup-topic", WARMUP_TOPIC,
                    "--warmup-records", String.valueOf(options.warmupEvents() + options.partitions()),
                    "--queries", String.join(",", options.queries().stream().map(NexmarkQuery::id).toList()),
                    "--parallelism", String.valueOf(options.parallelism()),
                    "--interval", options.interval(),
                    "--max-memory", options.maxMemory(),
                    "--sink", options.ontulSink(),
                    "--timeout-seconds", String.valueOf(perJob)), timeoutSeconds, lines);
        }
        catch (IllegalStateException e) {
            Progress.log("%s failed: %s", engine, e.getMessage());
            lines.add(Map.of(ENGINE_ERROR, String.valueOf(e.getMessage())));
        }
        return List.copyOf(lines);
    }

    /** Sends events 0 to {@code events - 1} round robin over the partitions, then a closing event per partition; the average record size. */
    private long prefill(String bootstrapServers, String topic, long events)
            throws IOException
    {
        NexmarkEvents generator = new NexmarkEvents();
        String closing = generator.closing(events);
        return TopicFiller.fill(bootstrapServers, topic, options.partitions(), events, generator::event, partition -> closing) / Math.max(1, events);
    }

    record Options(long events, long warmupEvents, int partitions, int parallelism, List<NexmarkQuery> queries, List<String> engines, String interval, String childHeap,
            String maxMemory, String ontulSink, Optional<Path> out)
    {
        Options
        {
            if (!ontulSink.equals("blackhole") && !ontulSink.equals("iceberg")) {
                throw new IllegalArgumentException("Unknown --ontul-sink " + ontulSink + ": blackhole or iceberg");
            }
            queries = List.copyOf(queries);
            engines = List.copyOf(engines);
            if (events < 1 || warmupEvents < 1 || partitions < 1 || parallelism < 1) {
                throw new IllegalArgumentException("events, warmup-events, partitions and parallelism must be positive");
            }
            for (String engine : engines) {
                if (!engine.equals("flink") && !engine.equals("ontul")) {
                    throw new IllegalArgumentException("Unknown engine " + engine + ": flink or ontul");
                }
            }
        }

        static Options parse(String[] args)
        {
            long events = 4_000_000;
            long warmupEvents = 400_000;
            int partitions = 4;
            int parallelism = 1;
            List<NexmarkQuery> queries = NexmarkQuery.ALL;
            List<String> engines = List.of("flink", "ontul");
            String interval = "10s";
            String childHeap = "8g";
            String maxMemory = "6GB";
            String ontulSink = "blackhole";
            Optional<Path> out = Optional.of(Path.of("bench/RESULTS.md"));
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("Missing value for " + option);
                }
                String value = args[++i];
                try {
                    switch (option) {
                        case "--events" -> events = Long.parseLong(value.replace("_", "").replace(",", ""));
                        case "--warmup-events" -> warmupEvents = Long.parseLong(value.replace("_", "").replace(",", ""));
                        case "--partitions" -> partitions = Integer.parseInt(value);
                        case "--parallelism" -> parallelism = Integer.parseInt(value);
                        case "--queries" -> queries = NexmarkBenchmark.queries(value);
                        case "--engines" -> engines = Arrays.stream(value.split(",")).map(String::trim).toList();
                        case "--interval" -> interval = value;
                        case "--child-heap" -> childHeap = value;
                        case "--max-memory" -> maxMemory = value;
                        case "--ontul-sink" -> ontulSink = value;
                        case "--out" -> out = value.equals("none") ? Optional.empty() : Optional.of(Path.of(value));
                        default -> throw new IllegalArgumentException("Unknown option " + option);
                    }
                }
                catch (NumberFormatException e) {
                    throw new IllegalArgumentException("Bad value for " + option + ": " + value);
                }
            }
            return new Options(events, warmupEvents, partitions, parallelism, queries, engines, interval, childHeap, maxMemory, ontulSink, out);
        }
    }
}
