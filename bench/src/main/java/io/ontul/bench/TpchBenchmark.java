package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import org.duckdb.DuckDBConnection;

import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.ResultComparison;

/**
 * TPC-H on Ontul and DuckDB side by side, in one JVM. Both engines get the same generated data
 * in memory under {@code memory.default}: DuckDB through its appender, Ontul with
 * {@code CREATE TABLE memory.default.T AS SELECT * FROM tpch.sfN.T}. Loading is timed apart from
 * the queries. After the warm-up, each query runs on Ontul, then DuckDB, then Ontul again, and so
 * on; the best of the runs counts, and every result is read to its last row. A run that takes
 * longer than the timeout is cancelled and the query reported as failed, so one runaway query
 * does not stall the whole benchmark. How the engines are reached is up to the
 * {@link TpchContenders}: by default Ontul is called directly ({@link EmbeddedTpchContenders});
 * {@link JdbcTpchBenchmark} reaches both over JDBC.
 * <p>
 * Run it with {@code bench/run-tpch.sh}; see {@link BenchmarkOptions#USAGE}.
 */
public final class TpchBenchmark
{
    private final BenchmarkOptions options;
    private final String command;
    private final String title;
    private final TpchContenders.Factory contenders;
    private final Workload workload;
    private final ExecutorService runner = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "benchmark-query");
        thread.setDaemon(true);
        return thread;
    });

    public TpchBenchmark(BenchmarkOptions options, String command)
    {
        this(options, command, "TPC-H", EmbeddedTpchContenders::new);
    }

    /** @param title starts the report's heading, which goes on with the scale and the date */
    public TpchBenchmark(BenchmarkOptions options, String command, String title, TpchContenders.Factory contenders)
    {
        this(options, command, title, contenders, new TpchWorkload());
    }

    public TpchBenchmark(BenchmarkOptions options, String command, String title, TpchContenders.Factory contenders, Workload workload)
    {
        this.workload = requireNonNull(workload, "workload is null");
        this.options = requireNonNull(options, "options is null");
        this.command = requireNonNull(command, "command is null");
        this.title = requireNonNull(title, "title is null");
        this.contenders = requireNonNull(contenders, "contenders is null");
    }

    public static void main(String[] args)
            throws Exception
    {
        main(args, "TpchBenchmark", new TpchWorkload());
    }

    /** The command line of a benchmark of {@code workload} in this JVM (embedded Ontul and DuckDB); {@code mainClass} names it in the usage and the report. */
    static void main(String[] args, String mainClass, Workload workload)
            throws Exception
    {
        String usage = BenchmarkOptions.USAGE.replace("TpchBenchmark", mainClass);
        if (Stream.of(args).anyMatch(arg -> arg.equals("--help") || arg.equals("-h"))) {
            System.out.println(usage);
            return;
        }
        BenchmarkOptions options;
        try {
            options = BenchmarkOptions.parse(args);
        }
        catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(usage);
            System.exit(2);
            return;
        }
        String command = System.getProperty("ontul.bench.command", "java io.ontul.bench." + mainClass + " " + String.join(" ", args));
        new TpchBenchmark(options, command, workload.title(), EmbeddedTpchContenders::new, workload).run();
        // DuckDB's and Arrow's native threads must not keep the JVM alive
        System.exit(0);
    }

    public void run()
            throws Exception
    {
        if (options.check() && !workload.resultsComparable()) {
            throw new IllegalArgumentException("--check compares results, and the two engines' " + workload.title() + " results differ by nature");
        }
        Map<String, String> queries = selectQueries();
        String started = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"));
        List<String> facts = new ArrayList<>();
        facts.add("Machine: " + machine());
        facts.add("Java: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + ", max heap " + gibibytes(Runtime.getRuntime().maxMemory()));
        facts.add("Command: `" + command + "`");
        facts.add(String.format(Locale.ROOT, "Scale: %s (scale factor %s); best of %d run(s) after %d warm-up run(s); engines alternate per query; a run over %d s is cancelled",
                options.scaleName(), options.scale(), options.runs(), options.warmups(), options.timeout().toSeconds()));

        progress("Generating %s %s and loading DuckDB", workload.title(), options.scaleName());
        long start = System.nanoTime();
        DuckDBConnection connection = DuckDbTpch.openInMemory();
        workload.loadDuckDb(connection, options);
        long duckDbLoad = System.nanoTime() - start;
        try (TpchContenders engines = contenders.open(connection)) {
            BenchmarkEngine ontul = engines.ontul();
            BenchmarkEngine duckDb = engines.duckDb();
            facts.addAll(engines.facts());
            facts.add("DuckDB generate + load (not in query times): " + seconds(duckDbLoad));
            progress("DuckDB loaded in %s; loading Ontul", seconds(duckDbLoad));

            Optional<String> ontulLoadFailure = loadOntul(engines, facts);

            List<QueryMeasurement> measurements = new ArrayList<>();
            queries.keySet().forEach(name -> measurements.add(new QueryMeasurement(name)));
            ontulLoadFailure.ifPresent(failure -> measurements.forEach(query -> query.ontul().fail("not loaded: " + failure)));

            for (int warmup = 0; warmup < options.warmups(); warmup++) {
                progress("Warm-up %d of %d", warmup + 1, options.warmups());
                for (QueryMeasurement query : measurements) {
                    String sql = queries.get(query.name());
                    runOnce(ontul, query.ontul(), sql, false);
                    runOnce(duckDb, query.duckDb(), workload.forDuckDb(query.name(), sql), false);
                }
            }
            for (QueryMeasurement query : measurements) {
                String sql = queries.get(query.name());
                for (int run = 0; run < options.runs(); run++) {
                    runOnce(ontul, query.ontul(), sql, true);
                    runOnce(duckDb, query.duckDb(), workload.forDuckDb(query.name(), sql), true);
                }
                if (options.check()) {
                    query.setCheck(check(ontul, duckDb, query, sql, workload.forDuckDb(query.name(), sql)));
                }
                progress("%s  Ontul %s  DuckDB %s%s", query.name(), describe(query.ontul()), describe(query.duckDb()),
                        query.check().map(check -> "  check " + (check.equals("ok") ? "ok" : check)).orElse(""));
            }

            BenchmarkReport report = new BenchmarkReport(title + " " + options.scaleName() + ", " + started, facts, measurements, options.check(), workload.resultsComparable());
            System.out.println();
            System.out.print(report.text());
            if (options.out().isPresent()) {
                report.appendTo(options.out().get());
                System.out.println();
                System.out.println("Appended to " + options.out().get());
            }
        }
    }

    private Map<String, String> selectQueries()
    {
        Map<String, String> all = workload.queries();
        List<String> names = options.queries().isEmpty() ? List.copyOf(all.keySet()) : options.queries();
        Map<String, String> selected = new LinkedHashMap<>();
        for (String name : names) {
            String sql = all.get(name);
            if (sql == null) {
                throw new IllegalArgumentException("Unknown query " + name + "; known: " + String.join(",", all.keySet()));
            }
            selected.put(name, sql);
        }
        return selected;
    }

    private Optional<String> loadOntul(TpchContenders engines, List<String> facts)
    {
        long start = System.nanoTime();
        for (String sql : workload.ontulLoad(options)) {
            try {
                long tableStart = System.nanoTime();
                long rows = engines.load(sql);
                progress("  %s: %d rows in %s", sql, rows, seconds(System.nanoTime() - tableStart));
            }
            catch (Throwable failure) {
                String message = describe(failure);
                progress("Ontul load FAILED at %s: %s", sql, message);
                facts.add("Ontul load FAILED: `" + sql + "`: " + message);
                return Optional.of(message);
            }
        }
        long elapsed = System.nanoTime() - start;
        facts.add(String.format("Ontul load, %s (not in query times): %s", workload.ontulLoadDescription(options), seconds(elapsed)));
        progress("Ontul loaded in %s", seconds(elapsed));
        return Optional.empty();
    }

    private void runOnce(BenchmarkEngine engine, EngineTimings timings, String sql, boolean timed)
    {
        if (timings.failed()) {
            return;
        }
        CountDownLatch done = new CountDownLatch(1);
        Future<long[]> run = runner.submit(() -> {
            try {
                long start = System.nanoTime();
                long rows = engine.countRows(sql);
                return new long[] {System.nanoTime() - start, rows};
            }
            finally {
                done.countDown();
            }
        });
        try {
            long[] result = run.get(options.timeout().toMillis(), TimeUnit.MILLISECONDS);
            if (timed) {
                timings.record(result[0], result[1]);
            }
        }
        catch (TimeoutException e) {
            timings.fail(String.format("timed out after %d s", options.timeout().toSeconds()) + stop(engine, run, done));
        }
        catch (ExecutionException e) {
            timings.fail(describe(e.getCause()));
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }

    /** Cancels a run that took too long and waits a while for it to end; says how it went. */
    private static String stop(BenchmarkEngine engine, Future<?> run, CountDownLatch done)
    {
        try {
            engine.cancel();
            if (done.await(10, TimeUnit.SECONDS)) {
                return ", cancelled";
            }
            run.cancel(true);
            if (done.await(50, TimeUnit.SECONDS)) {
                return ", interrupted";
            }
            return ", and it is still running: later timings may be disturbed";
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }

    private static String check(BenchmarkEngine ontul, BenchmarkEngine duckDb, QueryMeasurement query, String sql, String duckDbSql)
    {
        if (query.ontul().failed() || query.duckDb().failed()) {
            return QueryMeasurement.NOT_COMPARED + ": a run failed";
        }
        BenchmarkEngine.QueryRows expected;
        BenchmarkEngine.QueryRows actual;
        try {
            expected = duckDb.rows(duckDbSql);
            actual = ontul.rows(sql);
        }
        catch (Throwable failure) {
            return QueryMeasurement.NOT_COMPARED + ": " + describe(failure);
        }
        if (expected.columnNames().size() != actual.columnNames().size()) {
            return String.format("column counts differ: Ontul %d, DuckDB %d", actual.columnNames().size(), expected.columnNames().size());
        }
        return ResultComparison.compare(sql, expected.columnNames(), expected.rows(), actual.rows())
                .map(difference -> "differs: " + difference)
                .orElse("ok");
    }

    private static String describe(EngineTimings timings)
    {
        if (timings.failed()) {
            return "FAILED (" + timings.failure().orElse("") + ")";
        }
        return timings.bestNanos().isPresent()
                ? String.format(Locale.ROOT, "%.1f ms, %d rows", timings.bestNanos().getAsLong() / 1e6, timings.rows())
                : "not timed";
    }

    private static String describe(Throwable failure)
    {
        String message = failure.getMessage();
        String firstLine = message == null ? "" : message.lines().findFirst().orElse("");
        return firstLine.isBlank() ? failure.getClass().getName() : failure.getClass().getSimpleName() + ": " + firstLine;
    }

    public static String machine()
    {
        List<String> parts = new ArrayList<>();
        parts.add(Runtime.getRuntime().availableProcessors() + " cores");
        readFirst(Path.of("/proc/cpuinfo"), "model name").ifPresent(parts::add);
        readFirst(Path.of("/proc/meminfo"), "MemTotal")
                .map(value -> value.replaceAll("[^0-9]", ""))
                .filter(value -> !value.isEmpty())
                .map(kibibytes -> gibibytes(Long.parseLong(kibibytes) * 1024) + " RAM")
                .ifPresent(parts::add);
        parts.add(System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        return String.join(", ", parts);
    }

    private static Optional<String> readFirst(Path file, String key)
    {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.filter(line -> line.startsWith(key))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst();
        }
        catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    static String gibibytes(long bytes)
    {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
    }

    private static String seconds(long nanos)
    {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    private static void progress(String format, Object... arguments)
    {
        System.out.println(String.format(Locale.ROOT, format, arguments));
        System.out.flush();
    }
}
