package io.ontul.bench.iceberg;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;

/**
 * Ontul's Iceberg catalog measured against DuckDB reading the same Parquet files:
 * <ol>
 * <li>{@code CREATE TABLE iceberg... AS SELECT * FROM tpch.sfN.lineitem} (rows generated on the
 * fly), the same from a memory table (the write alone), and into a table partitioned by
 * {@code month(l_shipdate)}; DuckDB's {@code COPY lineitem TO '...parquet'} of the same rows as
 * the peer's write rate;</li>
 * <li>a full-scan aggregate and a one-month query (which partition pruning cuts to 1/84 of the
 * files) on the partitioned table, by Ontul through the catalog and by DuckDB with
 * {@code read_parquet} over the table's data files as listed in Iceberg's metadata. Engines
 * alternate within each run; the median run counts; every result is read to its last row.</li>
 * </ol>
 * Run it with {@code bench/run-iceberg.sh}; see {@link IcebergBenchmarkOptions#USAGE}.
 */
public final class IcebergBenchmark
{
    private static final String AGGREGATE = "SELECT l_returnflag, l_linestatus, sum(l_quantity) AS quantity, sum(l_extendedprice) AS price, "
            + "avg(l_discount) AS discount, count(*) AS row_count FROM %s GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus";
    private static final String ONE_MONTH = "SELECT count(*) AS row_count, sum(l_extendedprice * l_discount) AS revenue FROM %s "
            + "WHERE l_shipdate >= DATE '1994-03-01' AND l_shipdate < DATE '1994-04-01'";

    private final IcebergBenchmarkOptions options;
    private final String command;

    private IcebergBenchmark(IcebergBenchmarkOptions options, String command)
    {
        this.options = requireNonNull(options, "options is null");
        this.command = requireNonNull(command, "command is null");
    }

    public static void main(String[] args)
            throws Exception
    {
        if (Stream.of(args).anyMatch(arg -> arg.equals("--help") || arg.equals("-h"))) {
            System.out.println(IcebergBenchmarkOptions.USAGE);
            return;
        }
        IcebergBenchmarkOptions options;
        try {
            options = IcebergBenchmarkOptions.parse(args);
        }
        catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(IcebergBenchmarkOptions.USAGE);
            System.exit(2);
            return;
        }
        String command = System.getProperty("ontul.bench.command", "java io.ontul.bench.iceberg.IcebergBenchmark " + String.join(" ", args));
        new IcebergBenchmark(options, command).run();
        // DuckDB's and Arrow's native threads must not keep the JVM alive
        System.exit(0);
    }

    private void run()
            throws Exception
    {
        String started = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));
        boolean temporary = options.directory().isEmpty();
        Path directory = options.directory().orElseGet(() -> {
            try {
                return Files.createTempDirectory("ontul-iceberg-bench-");
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        Path warehouse = directory.resolve("warehouse");
        List<String> facts = new ArrayList<>();
        facts.add("Machine: " + machine());
        facts.add("Java: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + ", max heap " + gibibytes(Runtime.getRuntime().maxMemory()));
        facts.add("Command: `" + command + "`");
        String schema = options.tpchSchema();
        facts.add(String.format(Locale.ROOT, "Scale %s (tpch.%s.lineitem); queries: median of %d run(s) after %d warm-up run(s), engines alternate; writes run once",
                options.scale(), schema, options.runs(), options.warmups()));
        facts.add("Warehouse: Hadoop catalog on local disk (" + warehouse + "), Parquet with Iceberg's defaults (zstd, 128 MB row groups, 512 MB target file size)");
        progress("Working directory %s", directory);

        Map<String, String> catalog = Map.of("connector.name", "iceberg", "iceberg.warehouse", warehouse.toString());
        List<Row> rows = new ArrayList<>();
        try (Engine engine = Engine.create(new EngineConfig(Map.of(), Map.of("iceberg", catalog)));
                Connection duckDb = openDuckDb()) {
            Session session = engine.createSession("bench");
            execute(session, "CREATE SCHEMA iceberg.bench");

            long start = System.nanoTime();
            long count = count(execute(session, "CREATE TABLE iceberg.bench.lineitem_from_tpch AS SELECT * FROM tpch." + schema + ".lineitem"));
            long fromTpch = System.nanoTime() - start;
            progress("CTAS from tpch: %d rows in %s", count, seconds(fromTpch));

            start = System.nanoTime();
            execute(session, "CREATE TABLE memory.default.lineitem AS SELECT * FROM tpch." + schema + ".lineitem");
            long toMemory = System.nanoTime() - start;
            progress("CTAS into memory: %s", seconds(toMemory));

            start = System.nanoTime();
            execute(session, "CREATE TABLE iceberg.bench.lineitem_flat AS SELECT * FROM memory.default.lineitem");
            long fromMemory = System.nanoTime() - start;
            progress("CTAS from memory: %s", seconds(fromMemory));

            start = System.nanoTime();
            execute(session, "CREATE TABLE iceberg.bench.lineitem WITH (partitioning = ARRAY['month(l_shipdate)']) AS SELECT * FROM memory.default.lineitem");
            long partitioned = System.nanoTime() - start;
            progress("CTAS partitioned from memory: %s", seconds(partitioned));
            execute(session, "DROP TABLE memory.default.lineitem");

            HadoopCatalog icebergCatalog = new HadoopCatalog();
            icebergCatalog.setConf(new Configuration());
            icebergCatalog.initialize("bench", Map.of("warehouse", warehouse.toString()));
            Table table = icebergCatalog.loadTable(TableIdentifier.of("bench", "lineitem"));
            List<String> files = dataFiles(table);
            long bytes = files.stream().mapToLong(IcebergBenchmark::size).sum();
            long monthFiles;
            try (CloseableIterable<FileScanTask> tasks = table.newScan()
                    .filter(Expressions.and(Expressions.greaterThanOrEqual("l_shipdate", "1994-03-01"), Expressions.lessThan("l_shipdate", "1994-04-01"))).planFiles()) {
                monthFiles = java.util.stream.StreamSupport.stream(tasks.spliterator(), false).count();
            }
            List<String> flatFiles = dataFiles(icebergCatalog.loadTable(TableIdentifier.of("bench", "lineitem_flat")));
            long flatBytes = flatFiles.stream().mapToLong(IcebergBenchmark::size).sum();
            facts.add(String.format(Locale.ROOT, "Tables: lineitem_flat %d data files, %s; lineitem (partitioned by month(l_shipdate)) %d data files, %s; the one-month filter leaves %d of them after Iceberg's planning",
                    flatFiles.size(), mebibytes(flatBytes), files.size(), mebibytes(bytes), monthFiles));

            start = System.nanoTime();
            Path duckDbCopy = directory.resolve("duckdb-lineitem.parquet");
            try (Statement statement = duckDb.createStatement()) {
                statement.execute("CREATE TABLE lineitem AS SELECT * FROM read_parquet(" + fileList(flatFiles) + ")");
            }
            long duckDbLoad = System.nanoTime() - start;
            start = System.nanoTime();
            try (Statement statement = duckDb.createStatement()) {
                statement.execute("COPY lineitem TO '" + duckDbCopy + "' (FORMAT parquet, COMPRESSION zstd)");
            }
            long duckDbWrite = System.nanoTime() - start;
            try (Statement statement = duckDb.createStatement()) {
                statement.execute("DROP TABLE lineitem");
            }
            facts.add("DuckDB: " + describeDuckDb(duckDb) + "; its write is COPY of the same rows (loaded from the Iceberg files in " + seconds(duckDbLoad) + ") to one zstd Parquet file");

            rows.add(Row.write("CTAS tpch." + schema + ".lineitem → Iceberg (includes generating the rows)", count, fromTpch, -1));
            rows.add(Row.write("CTAS memory.default.lineitem → Iceberg (the write alone; loading memory took " + seconds(toMemory) + ")", count, fromMemory, duckDbWrite));
            rows.add(Row.write("CTAS memory.default.lineitem → Iceberg partitioned by month(l_shipdate)", count, partitioned, -1));

            String ontulTable = "iceberg.bench.lineitem";
            String duckDbTable = "read_parquet(" + fileList(files) + ")";
            rows.add(measure("Full-scan aggregate (GROUP BY l_returnflag, l_linestatus)", session, duckDb, AGGREGATE.formatted(ontulTable), AGGREGATE.formatted(duckDbTable)));
            rows.add(measure("One month of l_shipdate (" + monthFiles + " of " + files.size() + " files after pruning)", session, duckDb, ONE_MONTH.formatted(ontulTable), ONE_MONTH.formatted(duckDbTable)));
            String flatTable = "read_parquet(" + fileList(flatFiles) + ")";
            rows.add(measure("One month of l_shipdate, unpartitioned table (row-group statistics only)", session, duckDb,
                    ONE_MONTH.formatted("iceberg.bench.lineitem_flat"), ONE_MONTH.formatted(flatTable)));
            icebergCatalog.close();
        }
        finally {
            if (temporary) {
                deleteRecursively(directory);
            }
        }

        String report = report("Iceberg: CTAS lineitem, full scan and pruned scan vs DuckDB read_parquet, scale " + options.scale() + ", " + started, facts, rows);
        System.out.println();
        System.out.print(report);
        if (options.out().isPresent()) {
            Files.writeString(options.out().get(), "\n" + report, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            System.out.println();
            System.out.println("Appended to " + options.out().get());
        }
    }

    private Row measure(String name, Session session, Connection duckDb, String ontulSql, String duckDbSql)
            throws SQLException
    {
        progress("%s", name);
        List<List<Object>> ontulResult = null;
        List<List<Object>> duckDbResult = null;
        for (int warmup = 0; warmup < options.warmups(); warmup++) {
            ontulResult = execute(session, ontulSql);
            duckDbResult = duckDb(duckDb, duckDbSql);
        }
        List<Long> ontul = new ArrayList<>();
        List<Long> duck = new ArrayList<>();
        for (int run = 0; run < options.runs(); run++) {
            long start = System.nanoTime();
            ontulResult = execute(session, ontulSql);
            ontul.add(System.nanoTime() - start);
            start = System.nanoTime();
            duckDbResult = duckDb(duckDb, duckDbSql);
            duck.add(System.nanoTime() - start);
            progress("  run %d: Ontul %s, DuckDB %s", run + 1, millis(ontul.get(run)), millis(duck.get(run)));
        }
        String check = sameRows(ontulResult, duckDbResult) ? "same rows" : "ROWS DIFFER: Ontul " + ontulResult + ", DuckDB " + duckDbResult;
        progress("  %s", check);
        return new Row(name, -1, median(ontul), median(duck), check);
    }

    private static List<List<Object>> execute(Session session, String sql)
    {
        List<List<Object>> rows = new ArrayList<>();
        try (QueryResult result = session.execute(sql)) {
            org.apache.arrow.vector.VectorSchemaRoot batch;
            while ((batch = result.nextBatch()) != null) {
                for (int row = 0; row < batch.getRowCount(); row++) {
                    List<Object> values = new ArrayList<>();
                    for (int column = 0; column < batch.getFieldVectors().size(); column++) {
                        values.add(batch.getVector(column).getObject(row));
                    }
                    rows.add(values);
                }
            }
        }
        return rows;
    }

    private static List<List<Object>> duckDb(Connection connection, String sql)
            throws SQLException
    {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet resultSet = statement.executeQuery(sql)) {
            int columns = resultSet.getMetaData().getColumnCount();
            while (resultSet.next()) {
                List<Object> values = new ArrayList<>();
                for (int column = 1; column <= columns; column++) {
                    values.add(resultSet.getObject(column));
                }
                rows.add(values);
            }
        }
        return rows;
    }

    /** Compares as text with numbers rounded to 6 significant digits: the engines' decimal scales and double sums differ slightly. */
    private static boolean sameRows(List<List<Object>> left, List<List<Object>> right)
    {
        return normalize(left).equals(normalize(right));
    }

    private static List<List<String>> normalize(List<List<Object>> rows)
    {
        return rows.stream().map(row -> row.stream().map(value -> {
            if (value instanceof Number number) {
                return new java.math.BigDecimal(number.toString()).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString();
            }
            return String.valueOf(value);
        }).toList()).toList();
    }

    private static long count(List<List<Object>> rows)
    {
        return ((Number) rows.get(0).get(0)).longValue();
    }

    private static List<String> dataFiles(Table table)
            throws IOException
    {
        List<String> files = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                files.add(task.file().location().replaceFirst("^file:(//)?", ""));
            }
        }
        files.sort(Comparator.naturalOrder());
        return files;
    }

    private static String fileList(List<String> files)
    {
        return files.stream().map(file -> "'" + file.replace("'", "''") + "'").collect(Collectors.joining(", ", "[", "]"));
    }

    private static long size(String file)
    {
        try {
            return Files.size(Path.of(file));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Connection openDuckDb()
            throws SQLException
    {
        Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET autoinstall_known_extensions = false");
            statement.execute("SET autoload_known_extensions = false");
        }
        return connection;
    }

    private static String describeDuckDb(Connection connection)
            throws SQLException
    {
        try (Statement statement = connection.createStatement();
                ResultSet resultSet = statement.executeQuery("SELECT version(), current_setting('threads')")) {
            resultSet.next();
            return "DuckDB " + resultSet.getString(1) + " (threads " + resultSet.getString(2) + ")";
        }
    }

    private static String report(String title, List<String> facts, List<Row> rows)
    {
        StringBuilder text = new StringBuilder();
        text.append("## ").append(title).append("\n\n");
        facts.forEach(fact -> text.append("- ").append(fact).append('\n'));
        text.append("\n| Step | Rows | Ontul | Ontul rows/s | DuckDB | DuckDB rows/s | Ontul/DuckDB | Note |\n");
        text.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
        for (Row row : rows) {
            text.append("| ").append(row.name())
                    .append(" | ").append(row.rows() < 0 ? "" : String.format(Locale.ROOT, "%,d", row.rows()))
                    .append(" | ").append(millis(row.ontulNanos()))
                    .append(" | ").append(row.rows() < 0 ? "" : rate(row.rows(), row.ontulNanos()))
                    .append(" | ").append(row.duckDbNanos() < 0 ? "" : millis(row.duckDbNanos()))
                    .append(" | ").append(row.rows() < 0 || row.duckDbNanos() < 0 ? "" : rate(row.rows(), row.duckDbNanos()))
                    .append(" | ").append(row.duckDbNanos() <= 0 ? "" : String.format(Locale.ROOT, "%.2f", (double) row.ontulNanos() / row.duckDbNanos()))
                    .append(" | ").append(row.note())
                    .append(" |\n");
        }
        return text.toString();
    }

    private record Row(String name, long rows, long ontulNanos, long duckDbNanos, String note)
    {
        static Row write(String name, long rows, long ontulNanos, long duckDbNanos)
        {
            return new Row(name, rows, ontulNanos, duckDbNanos, "");
        }
    }

    private static long median(List<Long> values)
    {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private static String rate(long rows, long nanos)
    {
        return String.format(Locale.ROOT, "%,.0f", rows / (nanos / 1e9));
    }

    private static String millis(long nanos)
    {
        return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }

    private static String seconds(long nanos)
    {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    private static String mebibytes(long bytes)
    {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    private static String gibibytes(long bytes)
    {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    }

    private static String machine()
    {
        String cpu = "unknown CPU";
        String memory = "";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim()).findFirst().orElse(cpu);
            memory = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(line -> line.startsWith("MemTotal"))
                    .map(line -> ", " + gibibytes(Long.parseLong(line.replaceAll("\\D", "")) * 1024) + " RAM").findFirst().orElse("");
        }
        catch (IOException | RuntimeException e) {
            // not Linux: the core count and OS still say something
        }
        return Runtime.getRuntime().availableProcessors() + " cores, " + cpu + memory + ", " + System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    private static void deleteRecursively(Path directory)
    {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (IOException e) {
            progress("Could not delete %s: %s", directory, e.getMessage());
        }
    }

    private static void progress(String format, Object... arguments)
    {
        System.err.printf(Locale.ROOT, "[%s] %s%n", LocalTime.now().withNano(0), String.format(Locale.ROOT, format, arguments));
    }
}
