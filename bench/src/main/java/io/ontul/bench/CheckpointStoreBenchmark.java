package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.exchange.checkpoint.CheckpointConfig;
import io.ontul.exchange.checkpoint.CheckpointStore;
import io.ontul.exchange.checkpoint.CompletedCheckpoint;
import io.ontul.exchange.checkpoint.StateStreamReader;
import io.ontul.exchange.checkpoint.StateStreamWriter;
import io.ontul.exchange.checkpoint.TaskSnapshotWriter;
import io.ontul.exchange.crypto.EncryptionConfig;
import io.ontul.exchange.crypto.ExchangeStreamFactory;

/**
 * The checkpoint store's throughput: lineitem's Arrow batches (about 1 GB at scale 1) written
 * as one state stream of one task and completed as a checkpoint, then read back twice, first
 * after dropping the files from the page cache (cold) and again at once (warm); with encryption
 * on and off and compression none and lz4. In each run the disk's raw rate comes first: a file of
 * the same size written with a FileChannel and synced, read cold and warm. The median run counts.
 * Rates are in MB/s (10^6 bytes) of Arrow data, so that compression shows as a gain.
 * <p>
 * Run it with {@code bench/run-spill.sh checkpoint}.
 */
public final class CheckpointStoreBenchmark
{
    public static final String USAGE = String.join(System.lineSeparator(),
            "usage: CheckpointStoreBenchmark [--scale 1] [--runs 3] [--out bench/RESULTS.md|none] [--directory DIR]",
            "  --scale      TPC-H scale factor of the lineitem batches written (default 1: about 1 GB)",
            "  --runs       runs per setting; the median counts (default 3)",
            "  --out        markdown file the results are appended to, or none (default bench/RESULTS.md)",
            "  --directory  where the files go (default: a new temporary directory, deleted at the end)");

    private static final String JOB = "bench";
    private static final String TASK = "task-0";
    private static final String STREAM = "lineitem";
    private static final String RAW = "raw disk (FileChannel)";

    private final double scale;
    private final int runs;
    private final Optional<Path> out;
    private final Optional<Path> directory;
    private final String command;

    private CheckpointStoreBenchmark(double scale, int runs, Optional<Path> out, Optional<Path> directory, String command)
    {
        this.scale = scale;
        this.runs = runs;
        this.out = requireNonNull(out, "out is null");
        this.directory = requireNonNull(directory, "directory is null");
        this.command = requireNonNull(command, "command is null");
    }

    public static void main(String[] args)
            throws Exception
    {
        if (Stream.of(args).anyMatch(arg -> arg.equals("--help") || arg.equals("-h"))) {
            System.out.println(USAGE);
            return;
        }
        double scale = 1;
        int runs = 3;
        Optional<Path> out = Optional.of(Path.of("bench", "RESULTS.md"));
        Optional<Path> directory = Optional.empty();
        try {
            for (int index = 0; index < args.length; index++) {
                String option = args[index];
                switch (option) {
                    case "--scale" -> scale = SpillBenchmarkOptions.positiveNumber(SpillBenchmarkOptions.value(args, ++index, option), option);
                    case "--runs" -> runs = SpillBenchmarkOptions.integer(SpillBenchmarkOptions.value(args, ++index, option), option, 1);
                    case "--out" -> {
                        String path = SpillBenchmarkOptions.value(args, ++index, option);
                        out = path.equals("none") ? Optional.empty() : Optional.of(Path.of(path));
                    }
                    case "--directory" -> directory = Optional.of(Path.of(SpillBenchmarkOptions.value(args, ++index, option)));
                    default -> throw new IllegalArgumentException("Unknown option: " + option);
                }
            }
        }
        catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        String command = System.getProperty("ontul.bench.command", "java io.ontul.bench.CheckpointStoreBenchmark " + String.join(" ", args));
        new CheckpointStoreBenchmark(scale, runs, out, directory, command).run();
        System.exit(0);
    }

    /** The timed runs of one setting. */
    private static final class Setting
    {
        final String name;
        final Map<String, String> properties;
        final List<Long> writes = new ArrayList<>();
        final List<Long> coldReads = new ArrayList<>();
        final List<Long> warmReads = new ArrayList<>();
        long diskBytes;
        boolean cacheDropped = true;
        String failure;

        Setting(String name, Map<String, String> properties)
        {
            this.name = name;
            this.properties = properties;
        }
    }

    public void run()
            throws Exception
    {
        String started = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        Path root = directory.isPresent() ? Files.createDirectories(directory.get()) : Files.createTempDirectory("ontul-checkpoint-bench-");
        Path work = Files.createTempDirectory(root, "run-");
        String schemaName = TpchSchemaNames.of(scale);
        try (Engine engine = Engine.createEmbedded()) {
            Session session = engine.createSession("bench");
            session.execute("SET SESSION query_max_memory = '16GB'").close();
            BufferAllocator allocator = engine.rootAllocator().newChildAllocator("checkpoint-bench", 0, Long.MAX_VALUE);
            progress("Generating tpch.%s.lineitem", schemaName);
            long start = System.nanoTime();
            RecordedBatches batches;
            try (QueryResult result = session.execute("SELECT * FROM tpch." + schemaName + ".lineitem")) {
                batches = RecordedBatches.record(result, allocator);
            }
            long dataBytes = batches.bytes();
            progress("%d rows in %d batches, %s of Arrow data, in %.1f s", batches.rows(), batches.batches().size(), megabytes(dataBytes), (System.nanoTime() - start) / 1e9);

            List<Setting> settings = new ArrayList<>();
            Setting raw = new Setting(RAW, Map.of());
            settings.add(raw);
            for (boolean encrypted : List.of(false, true)) {
                for (String compression : List.of("none", "lz4")) {
                    Map<String, String> properties = new LinkedHashMap<>();
                    properties.put(EncryptionConfig.ENABLED, String.valueOf(encrypted));
                    properties.put(EncryptionConfig.COMPRESSION, compression);
                    settings.add(new Setting("checkpoint, " + (encrypted ? "encrypted" : "not encrypted") + ", " + compression, properties));
                }
            }
            for (int run = 0; run < runs; run++) {
                measureRaw(raw, work.resolve("raw.bin"), dataBytes);
                for (Setting setting : settings.subList(1, settings.size())) {
                    if (setting.failure == null) {
                        try {
                            measureCheckpoint(setting, work.resolve("setting-" + settings.indexOf(setting)), batches, allocator, run + 1);
                        }
                        catch (RuntimeException e) {
                            setting.failure = SpillBenchmark.describe(e);
                            progress("  %s FAILED: %s", setting.name, setting.failure);
                        }
                    }
                }
                progress("Run %d of %d done", run + 1, runs);
            }
            batches.close();
            allocator.close();

            String report = report(started, root, batches.rows(), batches.batches().size(), dataBytes, settings);
            System.out.println();
            System.out.print(report);
            if (out.isPresent()) {
                Files.writeString(out.get(), "\n" + report, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                System.out.println();
                System.out.println("Appended to " + out.get());
            }
        }
        finally {
            TemporaryFiles.deleteRecursively(work);
            if (directory.isEmpty()) {
                TemporaryFiles.deleteRecursively(root);
            }
        }
    }

    private static void measureRaw(Setting raw, Path file, long bytes)
    {
        raw.writes.add(DiskRate.write(file, bytes));
        raw.diskBytes = DiskRate.size(file);
        raw.cacheDropped &= DiskRate.dropFromCache(file);
        raw.coldReads.add(DiskRate.read(file));
        raw.warmReads.add(DiskRate.read(file));
        progress("  %s: write %s, cold read %s, warm read %s", raw.name, rate(bytes, last(raw.writes)), rate(bytes, last(raw.coldReads)), rate(bytes, last(raw.warmReads)));
        TemporaryFiles.deleteRecursively(file);
    }

    private static void measureCheckpoint(Setting setting, Path dataDirectory, RecordedBatches batches, BufferAllocator allocator, long checkpointId)
    {
        try {
            Files.createDirectories(dataDirectory);
            EncryptionConfig encryption = EncryptionConfig.fromProperties(setting.properties);
            ExchangeStreamFactory streams = ExchangeStreamFactory.create(encryption, dataDirectory.resolve("kms"), Optional.empty());
            CheckpointConfig config = CheckpointConfig.fromProperties(setting.properties, dataDirectory);
            Path checkpoints = Path.of(config.baseDirectory()).resolve("checkpoints");
            try (CheckpointStore store = CheckpointStore.open(config, streams)) {
                long start = System.nanoTime();
                try (TaskSnapshotWriter task = store.taskSnapshot(JOB, checkpointId, TASK);
                        VectorSchemaRoot root = VectorSchemaRoot.create(batches.schema(), allocator)) {
                    StateStreamWriter stream = task.stream(STREAM, batches.schema());
                    VectorLoader loader = new VectorLoader(root);
                    for (ArrowRecordBatch batch : batches.batches()) {
                        loader.load(batch);
                        stream.write(root);
                    }
                    task.finish(Map.of());
                }
                store.complete(JOB, checkpointId, Map.of());
                setting.writes.add(System.nanoTime() - start);
                setting.diskBytes = DiskRate.size(checkpoints);

                setting.cacheDropped &= DiskRate.dropFromCache(checkpoints);
                setting.coldReads.add(read(store, allocator, batches.rows()));
                setting.warmReads.add(read(store, allocator, batches.rows()));
                store.deleteJob(JOB);
            }
            long bytes = batches.bytes();
            progress("  %s: write %s, cold read %s, warm read %s, %s on disk", setting.name, rate(bytes, last(setting.writes)),
                    rate(bytes, last(setting.coldReads)), rate(bytes, last(setting.warmReads)), megabytes(setting.diskBytes));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long read(CheckpointStore store, BufferAllocator allocator, long expectedRows)
    {
        long start = System.nanoTime();
        CompletedCheckpoint checkpoint = store.latestComplete(JOB).orElseThrow(() -> new IllegalStateException("No complete checkpoint"));
        long rows = 0;
        try (StateStreamReader reader = checkpoint.task(TASK).orElseThrow().openStream(STREAM, allocator)) {
            VectorSchemaRoot batch;
            while ((batch = reader.next()) != null) {
                rows += batch.getRowCount();
                batch.close();
            }
        }
        long nanos = System.nanoTime() - start;
        if (rows != expectedRows) {
            throw new IllegalStateException("Read " + rows + " rows back, wrote " + expectedRows);
        }
        return nanos;
    }

    private String report(String started, Path root, long rows, int batchCount, long dataBytes, List<Setting> settings)
    {
        StringBuilder text = new StringBuilder();
        text.append("## Checkpoint store: write and read back lineitem's Arrow batches, scale ").append(scale).append(", ").append(started).append("\n\n");
        text.append("- Machine: ").append(TpchBenchmark.machine()).append('\n');
        text.append("- Java: ").append(System.getProperty("java.vm.name")).append(' ').append(System.getProperty("java.runtime.version")).append('\n');
        text.append("- Command: `").append(command).append("`\n");
        text.append(String.format(Locale.ROOT, "- Data: %d rows, %d Arrow batches, %s (Arrow buffer bytes); one task, one state stream, one thread; files under %s; median of %d run(s)%n",
                rows, batchCount, megabytes(dataBytes), root, runs));
        text.append("- Write = taskSnapshot + stream writes + finish + complete (every file synced, renamed, folders synced); read = latestComplete + openStream + every batch. "
                + "Cold reads follow `dd iflag=nocache count=0` on every file (POSIX_FADV_DONTNEED); warm reads come straight after, from the page cache.\n");
        text.append("- Rates are MB/s (10^6 bytes) of Arrow data; the raw disk writes and reads a file of the same size with a FileChannel (1 MiB blocks, random bytes, force(true)).\n\n");
        text.append("| Setting | Write MB/s | Cold read MB/s | Warm read MB/s | On disk | Write vs raw | Cold read vs raw | Runs write/cold/warm ms | Note |\n");
        text.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n");
        Setting raw = settings.get(0);
        for (Setting setting : settings) {
            text.append("| ").append(setting.name)
                    .append(" | ").append(rateNumber(dataBytes, median(setting.writes)))
                    .append(" | ").append(rateNumber(dataBytes, median(setting.coldReads)))
                    .append(" | ").append(rateNumber(dataBytes, median(setting.warmReads)))
                    .append(" | ").append(setting.diskBytes > 0 ? megabytes(setting.diskBytes) : "-")
                    .append(" | ").append(share(median(raw.writes), median(setting.writes)))
                    .append(" | ").append(share(median(raw.coldReads), median(setting.coldReads)))
                    .append(" | ").append(runs(setting))
                    .append(" | ").append(setting.failure != null ? "FAILED: " + setting.failure.replace('|', '/') : setting.cacheDropped ? "" : "cache drop failed: cold read may be warm")
                    .append(" |\n");
        }
        return text.toString();
    }

    private static String runs(Setting setting)
    {
        List<String> parts = new ArrayList<>();
        for (int index = 0; index < setting.writes.size(); index++) {
            parts.add(String.format(Locale.ROOT, "%.0f/%s/%s", setting.writes.get(index) / 1e6,
                    index < setting.coldReads.size() ? String.format(Locale.ROOT, "%.0f", setting.coldReads.get(index) / 1e6) : "-",
                    index < setting.warmReads.size() ? String.format(Locale.ROOT, "%.0f", setting.warmReads.get(index) / 1e6) : "-"));
        }
        return String.join(", ", parts);
    }

    /** Raw time / this time: the share of the raw rate reached (1.0 = as fast as the raw disk). */
    private static String share(long rawNanos, long nanos)
    {
        if (rawNanos <= 0 || nanos <= 0) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.2f×", (double) rawNanos / nanos);
    }

    private static long median(List<Long> values)
    {
        if (values.isEmpty()) {
            return -1;
        }
        List<Long> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    private static long last(List<Long> values)
    {
        return values.get(values.size() - 1);
    }

    private static String rateNumber(long bytes, long nanos)
    {
        return nanos <= 0 ? "-" : String.format(Locale.ROOT, "%.0f", bytes / 1e6 / (nanos / 1e9));
    }

    private static String rate(long bytes, long nanos)
    {
        return rateNumber(bytes, nanos) + " MB/s";
    }

    private static String megabytes(long bytes)
    {
        return String.format(Locale.ROOT, "%.0f MB", bytes / 1e6);
    }

    private static void progress(String format, Object... arguments)
    {
        System.out.println(String.format(Locale.ROOT, format, arguments));
        System.out.flush();
    }
}
