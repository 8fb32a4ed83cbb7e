package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.duckdb.DuckDBConnection;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.exchange.crypto.EncryptionConfig;
import io.ontul.exchange.spill.SpillStore;

/**
 * Operators that spill, measured: a hash aggregation, hash joins with a large build side, a
 * sort and window functions over large window partitions (see {@link SpillQuery}) on TPC-H lineitem and orders, each run
 * <ul>
 * <li>on Ontul without a memory limit, which gives the query's working set (its peak memory);</li>
 * <li>on Ontul with {@code query_max_memory} a fraction (default 10%) of that working set, with
 * exchange encryption on and, on a second engine, off;</li>
 * <li>on DuckDB in-process without a limit and with {@code memory_limit} the same bytes.</li>
 * </ul>
 * Ontul's data sits in {@code memory} tables (CTAS from {@code tpch.sfN}), DuckDB's in a database
 * file generated from the same rows. After the warm-up the cases alternate within each run, in an
 * order rotated from run to run; the median run counts and every result is read to its last row.
 * A run that fails or takes longer than the timeout marks its case FAILED and the benchmark goes
 * on.
 * <p>
 * Run it with {@code bench/run-spill.sh spill}; see {@link SpillBenchmarkOptions#USAGE}.
 */
public final class SpillBenchmark
{
    private static final long MIN_LIMIT = 1L << 20;

    private final SpillBenchmarkOptions options;
    private final String command;
    private final ExecutorService runner = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "spill-benchmark-query");
        thread.setDaemon(true);
        return thread;
    });

    public SpillBenchmark(SpillBenchmarkOptions options, String command)
    {
        this.options = requireNonNull(options, "options is null");
        this.command = requireNonNull(command, "command is null");
    }

    public static void main(String[] args)
            throws Exception
    {
        if (Stream.of(args).anyMatch(arg -> arg.equals("--help") || arg.equals("-h"))) {
            System.out.println(SpillBenchmarkOptions.USAGE);
            return;
        }
        SpillBenchmarkOptions options;
        try {
            options = SpillBenchmarkOptions.parse(args);
        }
        catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(SpillBenchmarkOptions.USAGE);
            System.exit(2);
            return;
        }
        String command = System.getProperty("ontul.bench.command", "java io.ontul.bench.SpillBenchmark " + String.join(" ", args));
        new SpillBenchmark(options, command).run();
        // DuckDB's and Arrow's native threads must not keep the JVM alive
        System.exit(0);
    }

    public void run()
            throws Exception
    {
        String started = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        List<String> facts = new ArrayList<>();
        facts.add("Machine: " + TpchBenchmark.machine());
        facts.add("Java: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + ", max heap " + TpchBenchmark.gibibytes(Runtime.getRuntime().maxMemory()));
        facts.add("Command: `" + command + "`");
        facts.add(String.format(Locale.ROOT, "Scale %s (tpch.%s lineitem and orders); median of %d run(s) after %d warm-up run(s); cases alternate within each run, in an order rotated each run; limit = %.0f%% of Ontul's peak memory without limit",
                options.scale(), options.tpchSchema(), options.runs(), options.warmups(), options.fraction() * 100));

        Path directory = Files.createTempDirectory("ontul-spill-bench-");
        progress("Working directory %s", directory);
        Engine encrypted = null;
        Engine clear = null;
        try (DuckDBConnection duckDb = openDuckDb(directory)) {
            long start = System.nanoTime();
            // all eight tables, each generated in parallel parts: faster than lineitem and orders alone
            DuckDbTpch.load(duckDb, "bench", "main", options.scale(), Runtime.getRuntime().availableProcessors());
            try (Statement statement = duckDb.createStatement()) {
                statement.execute("CHECKPOINT");
            }
            facts.add(String.format("DuckDB: %s, tables in a database file, temp_directory in the same temporary directory; generate + load %s",
                    describeDuckDb(duckDb), seconds(System.nanoTime() - start)));
            progress("DuckDB loaded in %s", seconds(System.nanoTime() - start));

            encrypted = Engine.create(engineConfig(directory.resolve("ontul-encrypted")));
            clear = Engine.create(engineConfig(directory.resolve("ontul-clear"))
                    .withProperty(EncryptionConfig.ENABLED, "false"));
            OntulSpillContender unlimited = new OntulSpillContender("Ontul", encrypted);
            OntulSpillContender limitedEncrypted = new OntulSpillContender("Ontul", encrypted);
            OntulSpillContender limitedClear = new OntulSpillContender("Ontul", clear);
            facts.add("Ontul: spill through the Exchange Manager, compression " + encrypted.spillStore().compression()
                    + " (a hash join's partitions: " + encrypted.spillStore().joinCompression() + ")"
                    + "; encrypted engine (AES-GCM, local key management) and a second engine with " + EncryptionConfig.ENABLED + "=false; root memory "
                    + TpchBenchmark.gibibytes(encrypted.rootAllocator().getLimit()) + " per engine");
            facts.add("Ontul load: " + load(unlimited, "encrypted engine") + "; " + load(limitedClear, "clear engine"));
            DuckDbSpillContender duckDbContender = new DuckDbSpillContender("DuckDB", duckDb);

            List<QueryReport> reports = new ArrayList<>();
            for (String name : options.queries()) {
                SpillQuery query = SpillQuery.named(name).orElseThrow();
                reports.add(measure(query, unlimited, limitedEncrypted, limitedClear, duckDbContender));
            }

            String report = report("Spill: aggregation, joins, sort and window under a memory limit, scale " + options.scale() + ", " + started, facts, reports);
            System.out.println();
            System.out.print(report);
            if (options.out().isPresent()) {
                Files.writeString(options.out().get(), "\n" + report, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                System.out.println();
                System.out.println("Appended to " + options.out().get());
            }
        }
        finally {
            close(encrypted, "encrypted");
            close(clear, "clear");
            TemporaryFiles.deleteRecursively(directory);
        }
    }

    /** Closes an engine; a failure (such as memory a failed query leaked) is printed, not thrown. */
    private static void close(Engine engine, String label)
    {
        if (engine == null) {
            return;
        }
        try {
            engine.close();
        }
        catch (RuntimeException e) {
            progress("Closing the %s engine FAILED: %s", label, describe(e));
        }
    }

    private DuckDBConnection openDuckDb(Path directory)
            throws SQLException
    {
        Connection connection = DriverManager.getConnection("jdbc:duckdb:" + directory.resolve("bench.duckdb"));
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET autoinstall_known_extensions = false");
            statement.execute("SET autoload_known_extensions = false");
            statement.execute("SET temp_directory = '" + directory.resolve("duckdb-temp") + "'");
        }
        return connection.unwrap(DuckDBConnection.class);
    }

    private static String describeDuckDb(DuckDBConnection connection)
            throws SQLException
    {
        try (Statement statement = connection.createStatement();
                ResultSet resultSet = statement.executeQuery("SELECT version(), current_setting('threads'), current_setting('memory_limit')")) {
            resultSet.next();
            return "DuckDB " + resultSet.getString(1) + " (threads " + resultSet.getString(2) + ", default memory_limit " + resultSet.getString(3) + ")";
        }
    }

    private EngineConfig engineConfig(Path dataDirectory)
    {
        EngineConfig config = EngineConfig.embeddedDefaults().withProperty(EngineConfig.DATA_DIRECTORY, dataDirectory.toString());
        if (options.compression().isPresent()) {
            config = config.withProperty(EncryptionConfig.COMPRESSION, options.compression().get());
        }
        if (options.joinCompression().isPresent()) {
            config = config.withProperty(SpillStore.JOIN_COMPRESSION, options.joinCompression().get());
        }
        return config;
    }

    private String load(OntulSpillContender contender, String label)
    {
        long start = System.nanoTime();
        for (String table : List.of("lineitem", "orders")) {
            long rows = contender.execute(String.format("CREATE TABLE memory.default.%s AS SELECT * FROM tpch.%s.%s", table, options.tpchSchema(), table));
            progress("  %s %s: %d rows", label, table, rows);
        }
        return String.format("%s CTAS of lineitem and orders %s", label, seconds(System.nanoTime() - start));
    }

    private QueryReport measure(SpillQuery query, OntulSpillContender unlimited, OntulSpillContender limitedEncrypted, OntulSpillContender limitedClear, DuckDbSpillContender duckDb)
            throws Exception
    {
        progress("Query %s: %s", query.name(), query.sql());
        SpillCase ontulUnlimited = new SpillCase("Ontul, no limit", unlimited, false);
        SpillCase ontulEncrypted = new SpillCase("Ontul, limit, encrypted", limitedEncrypted, true);
        SpillCase ontulClear = new SpillCase("Ontul, limit, not encrypted", limitedClear, true);
        SpillCase duckDbUnlimited = new SpillCase("DuckDB, no limit", duckDb, false);
        SpillCase duckDbLimited = new SpillCase("DuckDB, limit", duckDb, true);
        List<SpillCase> cases = List.of(ontulUnlimited, ontulEncrypted, ontulClear, duckDbUnlimited, duckDbLimited);

        // the working set: EXPLAIN ANALYZE without limit, which also serves as a warm-up
        OntulSpillContender.AnalyzedQuery analyzed = null;
        String plan;
        long workingSet = -1;
        try {
            analyzed = unlimited.analyze(query.sql());
            plan = analyzed.plan();
            workingSet = Math.max(analyzed.peakMemoryBytes(), analyzed.operatorMemoryBytes());
        }
        catch (RuntimeException e) {
            plan = "EXPLAIN ANALYZE failed: " + describe(e);
            ontulUnlimited.fail(plan);
        }
        OptionalLong limit = OptionalLong.empty();
        if (workingSet > 0) {
            limit = OptionalLong.of(Math.max(MIN_LIMIT, (long) (workingSet * options.fraction())));
            progress("  working set %s (query peak %s, operators %s), limit %s", mebibytes(workingSet),
                    mebibytes(analyzed.peakMemoryBytes()), mebibytes(analyzed.operatorMemoryBytes()), mebibytes(limit.getAsLong()));
        }
        else {
            String why = "no working set: " + plan;
            ontulEncrypted.fail(why);
            ontulClear.fail(why);
            duckDbLimited.fail(why);
        }
        limitedEncrypted.limitMemory(limit);
        limitedClear.limitMemory(limit);

        for (int warmup = 0; warmup < options.warmups(); warmup++) {
            for (SpillCase spillCase : cases) {
                runOnce(spillCase, query.sql(), spillCase.limited() ? limit : OptionalLong.empty(), false);
            }
        }
        for (int run = 0; run < options.runs(); run++) {
            // in an order rotated each run: a case that always followed the same one would carry
            // what that one leaves behind (the unlimited run frees 100-400 MB of direct memory; the
            // encrypted case, always next, showed +24.5% encryption overhead where an alternated
            // A/B showed +10.5%)
            for (int index = 0; index < cases.size(); index++) {
                SpillCase spillCase = cases.get((index + run) % cases.size());
                runOnce(spillCase, query.sql(), spillCase.limited() ? limit : OptionalLong.empty(), true);
            }
            progress("  run %d of %d: %s", run + 1, options.runs(), cases.stream()
                    .map(spillCase -> spillCase.name() + " " + (spillCase.failed() ? "FAILED" : spillCase.nanos().isEmpty() ? "-" : millis(spillCase.nanos().get(spillCase.nanos().size() - 1))))
                    .collect(Collectors.joining(", ")));
        }
        limitedEncrypted.limitMemory(OptionalLong.empty());
        limitedClear.limitMemory(OptionalLong.empty());
        duckDb.limitMemory(OptionalLong.empty());
        for (SpillCase spillCase : cases) {
            spillCase.failure().ifPresent(failure -> progress("  %s FAILED: %s", spillCase.name(), failure));
        }
        return new QueryReport(query, plan, analyzed, workingSet, limit, ontulUnlimited, ontulEncrypted, ontulClear, duckDbUnlimited, duckDbLimited);
    }

    private void runOnce(SpillCase spillCase, String sql, OptionalLong limit, boolean timed)
    {
        if (spillCase.failed()) {
            return;
        }
        SpillContender contender = spillCase.contender();
        System.gc();
        CountDownLatch done = new CountDownLatch(1);
        Future<SpillContender.SpillRunResult> run = runner.submit(() -> {
            try {
                // DuckDB's limit is per database: both its cases share one connection
                if (contender instanceof DuckDbSpillContender) {
                    contender.limitMemory(limit);
                }
                return contender.run(sql);
            }
            finally {
                done.countDown();
            }
        });
        try {
            spillCase.record(run.get(options.timeout().toMillis(), TimeUnit.MILLISECONDS), timed);
        }
        catch (TimeoutException e) {
            spillCase.fail(String.format("timed out after %d s", options.timeout().toSeconds()) + stop(contender, run, done));
        }
        catch (ExecutionException e) {
            spillCase.fail(describe(e.getCause()));
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }

    private static String stop(SpillContender contender, Future<?> run, CountDownLatch done)
    {
        try {
            contender.cancel();
            if (done.await(30, TimeUnit.SECONDS)) {
                return ", cancelled";
            }
            run.cancel(true);
            if (done.await(60, TimeUnit.SECONDS)) {
                return ", interrupted";
            }
            return ", and it is still running: later timings may be disturbed";
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", e);
        }
    }

    private record QueryReport(SpillQuery query, String plan, OntulSpillContender.AnalyzedQuery analyzed, long workingSet, OptionalLong limit,
            SpillCase ontulUnlimited, SpillCase ontulEncrypted, SpillCase ontulClear, SpillCase duckDbUnlimited, SpillCase duckDbLimited)
    {
        List<SpillCase> cases()
        {
            return List.of(ontulUnlimited, ontulEncrypted, ontulClear, duckDbUnlimited, duckDbLimited);
        }
    }

    private String report(String title, List<String> facts, List<QueryReport> reports)
    {
        StringBuilder text = new StringBuilder();
        text.append("## ").append(title).append("\n\n");
        facts.forEach(fact -> text.append("- ").append(fact).append('\n'));
        text.append("\nGoals: slowdown under the limit (limit, encrypted / no limit) ≤ 1.5× for aggregate and join, ≤ 2× for sort and window; "
                + "Ontul under the limit / DuckDB under the limit ≤ 3×; encryption overhead (encrypted / not encrypted − 1, both under the limit) ≤ 10%.\n\n");
        text.append("| Query | Working set | Limit | Slowdown (goal) | Ontul/DuckDB, limit (goal 3×) | Encryption overhead (goal 10%) | Spilled |\n");
        text.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (QueryReport report : reports) {
            text.append("| ").append(report.query().name())
                    .append(" | ").append(report.workingSet() > 0 ? mebibytes(report.workingSet()) : "?")
                    .append(" | ").append(report.limit().isPresent() ? mebibytes(report.limit().getAsLong()) : "-")
                    .append(" | ").append(ratio(report.ontulEncrypted(), report.ontulUnlimited(), report.query().maxSlowdown()))
                    .append(" | ").append(ratio(report.ontulEncrypted(), report.duckDbLimited(), 3))
                    .append(" | ").append(overhead(report.ontulEncrypted(), report.ontulClear()))
                    .append(" | ").append(report.ontulEncrypted().spilledBytes() >= 0 ? mebibytes(report.ontulEncrypted().spilledBytes()) : "-")
                    .append(" |\n");
        }
        for (QueryReport report : reports) {
            text.append("\n### ").append(report.query().name()).append(": ").append(report.query().description()).append("\n\n");
            text.append("`").append(report.query().sql()).append("`\n\n");
            text.append("| Case | Median ms | Runs ms | Rows | Peak memory | Spilled | Note |\n");
            text.append("| --- | ---: | --- | ---: | ---: | ---: | --- |\n");
            for (SpillCase spillCase : report.cases()) {
                text.append("| ").append(spillCase.name())
                        .append(" | ").append(spillCase.medianNanos().isPresent() ? millis(spillCase.medianNanos().getAsLong()) : "-")
                        .append(" | ").append(spillCase.nanos().stream().map(SpillBenchmark::millis).collect(Collectors.joining(", ")))
                        .append(" | ").append(spillCase.rows() >= 0 ? String.valueOf(spillCase.rows()) : "-")
                        .append(" | ").append(spillCase.peakMemoryBytes() >= 0 ? mebibytes(spillCase.peakMemoryBytes()) : "-")
                        .append(" | ").append(spillCase.spilledBytes() >= 0 ? mebibytes(spillCase.spilledBytes()) : "-")
                        .append(" | ").append(spillCase.failure().map(failure -> "FAILED: " + failure.replace('|', '/').replace('\n', ' ')).orElse(""))
                        .append(" |\n");
            }
            if (report.analyzed() != null) {
                text.append(String.format("\nWorking set %s: the larger of the query's peak memory without limit (%s) and the sum of its operators' memory (%s), from EXPLAIN ANALYZE:\n",
                        mebibytes(report.workingSet()), mebibytes(report.analyzed().peakMemoryBytes()), mebibytes(report.analyzed().operatorMemoryBytes())));
            }
            text.append("\n```\n").append(report.plan().strip()).append("\n```\n");
        }
        return text.toString();
    }

    private static String ratio(SpillCase numerator, SpillCase denominator, double goal)
    {
        if (numerator.medianNanos().isEmpty() || denominator.medianNanos().isEmpty()) {
            return "- (" + (numerator.failed() ? "failed" : "no time") + ")";
        }
        double value = (double) numerator.medianNanos().getAsLong() / denominator.medianNanos().getAsLong();
        return String.format(Locale.ROOT, "%.2f× (%s %.1f×)", value, value <= goal ? "met," : "MISSED,", goal);
    }

    private static String overhead(SpillCase encrypted, SpillCase clear)
    {
        if (encrypted.medianNanos().isEmpty() || clear.medianNanos().isEmpty()) {
            return "- (" + (encrypted.failed() || clear.failed() ? "failed" : "no time") + ")";
        }
        double value = (double) encrypted.medianNanos().getAsLong() / clear.medianNanos().getAsLong() - 1;
        return String.format(Locale.ROOT, "%+.1f%% (%s)", value * 100, value <= 0.10 ? "met" : "MISSED");
    }

    static String describe(Throwable failure)
    {
        String message = failure.getMessage();
        String firstLine = message == null ? "" : message.lines().findFirst().orElse("");
        return firstLine.isBlank() ? failure.getClass().getName() : failure.getClass().getSimpleName() + ": " + firstLine;
    }

    static String mebibytes(long bytes)
    {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
    }

    private static String millis(long nanos)
    {
        return String.format(Locale.ROOT, "%.0f", nanos / 1e6);
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
