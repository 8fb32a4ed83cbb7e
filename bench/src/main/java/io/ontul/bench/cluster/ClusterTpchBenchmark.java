package io.ontul.bench.cluster;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.ontul.bench.OntulServerProcess;
import io.ontul.bench.TemporaryFiles;
import io.ontul.bench.TpchBenchmark;
import io.ontul.engine.testing.TpchQueries;

/**
 * TPC-H on one Ontul process (role all) and on two clusters, a coordinator with one worker and a
 * coordinator with two workers, all started as separate processes on this machine and reading
 * the same generated tables ({@code tpch.sfN}: the scans run on the workers). On a machine with
 * few cores this measures what the exchanges and the cluster's extra processes cost, not a
 * speed-up. Each query runs on the three setups in turn, best of the runs after the warm-up;
 * every result is read to its last row, and the three results must be equal. Reports the bytes
 * each query moved between the nodes ({@code system.runtime.queries.exchanged_bytes}: what the
 * coordinator received from the workers and what the workers shuffled between them).
 * <p>
 * Run it with {@code bench/run-cluster-tpch.sh [--scale sf1] [--runs 2] [--warmup 1]
 * [--queries q01,q05] [--out bench/RESULTS.md]}.
 */
public final class ClusterTpchBenchmark
{
    private static final String SINGLE = "single process";
    private static final String ONE_WORKER = "coordinator + 1 worker";
    private static final String TWO_WORKERS = "coordinator + 2 workers";
    private static final long TIMEOUT_SECONDS = 600;

    private final String schema;
    private final int runs;
    private final int warmups;
    private final List<String> queryNames;
    private final Optional<Path> out;
    private final String command;
    private final ExecutorService runner = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "benchmark-query");
        thread.setDaemon(true);
        return thread;
    });

    private ClusterTpchBenchmark(String schema, int runs, int warmups, List<String> queryNames, Optional<Path> out, String command)
    {
        this.schema = schema;
        this.runs = runs;
        this.warmups = warmups;
        this.queryNames = queryNames;
        this.out = out;
        this.command = command;
    }

    public static void main(String[] args)
            throws Exception
    {
        String schema = "sf1";
        int runs = 2;
        int warmups = 1;
        List<String> queries = List.of();
        Optional<Path> out = Optional.empty();
        for (int index = 0; index < args.length; index++) {
            String value = index + 1 < args.length ? args[index + 1] : null;
            switch (args[index]) {
                case "--scale" -> schema = required(args[index], value);
                case "--runs" -> runs = Integer.parseInt(required(args[index], value));
                case "--warmup" -> warmups = Integer.parseInt(required(args[index], value));
                case "--queries" -> queries = List.of(required(args[index], value).split(","));
                case "--out" -> out = Optional.of(Path.of(required(args[index], value)));
                default -> {
                    System.err.println("Unknown option " + args[index] + "; usage: [--scale sf1] [--runs 2] [--warmup 1] [--queries q01,q05] [--out FILE]");
                    System.exit(2);
                }
            }
            index++;
        }
        String command = System.getProperty("ontul.bench.command", "java " + ClusterTpchBenchmark.class.getName() + " " + String.join(" ", args));
        new ClusterTpchBenchmark(schema, runs, warmups, queries, out, command).run();
        System.exit(0);
    }

    private static String required(String option, String value)
    {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    /** One way of running Ontul: the process clients talk to, and all of its processes. */
    private record Setup(String name, OntulServerProcess entry, List<OntulServerProcess> processes)
            implements AutoCloseable
    {
        @Override
        public void close()
        {
            for (int index = processes.size() - 1; index >= 0; index--) {
                processes.get(index).close();
            }
        }
    }

    /** A query's best time and bytes moved between the nodes, per setup. */
    private static final class Measurement
    {
        final Map<String, Long> bestNanos = new LinkedHashMap<>();
        final Map<String, Long> exchangedBytes = new LinkedHashMap<>();
        final Map<String, String> failures = new LinkedHashMap<>();
        String check = "ok";
    }

    private void run()
            throws Exception
    {
        Map<String, String> all = TpchQueries.load();
        Map<String, String> queries = new LinkedHashMap<>();
        for (String name : queryNames.isEmpty() ? List.copyOf(all.keySet()) : queryNames) {
            String sql = all.get(name);
            if (sql == null) {
                throw new IllegalArgumentException("Unknown query " + name);
            }
            queries.put(name, TpchQueries.withTablePrefix(sql, "tpch." + schema + "."));
        }
        String started = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"));
        Path directory = Files.createTempDirectory("ontul-cluster-bench");
        byte[] secret = new byte[33];
        new SecureRandom().nextBytes(secret);
        String clusterSecret = Base64.getEncoder().encodeToString(secret);
        List<Setup> setups = new ArrayList<>();
        try {
            setups.add(single(directory.resolve("single")));
            setups.add(cluster(directory.resolve("one"), ONE_WORKER, 1, clusterSecret));
            setups.add(cluster(directory.resolve("two"), TWO_WORKERS, 2, clusterSecret));
            for (Setup setup : setups) {
                for (OntulServerProcess process : setup.processes()) {
                    process.awaitReady(180_000);
                }
            }
            awaitWorkers(setups.get(1), 1);
            awaitWorkers(setups.get(2), 2);
            Map<String, Measurement> measurements = new LinkedHashMap<>();
            for (String name : queries.keySet()) {
                measurements.put(name, new Measurement());
            }
            for (int warmup = 0; warmup < warmups; warmup++) {
                progress("Warm-up %d of %d", warmup + 1, warmups);
                for (Map.Entry<String, String> query : queries.entrySet()) {
                    for (Setup setup : setups) {
                        runOnce(setup, query.getValue(), measurements.get(query.getKey()), false);
                    }
                }
            }
            for (Map.Entry<String, String> query : queries.entrySet()) {
                Measurement measurement = measurements.get(query.getKey());
                List<String> reference = null;
                for (int run = 0; run < runs; run++) {
                    for (Setup setup : setups) {
                        List<String> rows = runOnce(setup, query.getValue(), measurement, true);
                        if (rows != null && reference == null) {
                            reference = rows;
                        }
                        else if (rows != null && !rows.equals(reference)) {
                            measurement.check = "differs on " + setup.name();
                        }
                    }
                }
                progress("%s  %s  %s  %s  check %s", query.getKey(), describe(measurement, SINGLE), describe(measurement, ONE_WORKER), describe(measurement, TWO_WORKERS),
                        measurement.check);
            }
            String report = report(started, measurements);
            System.out.println();
            System.out.print(report);
            if (out.isPresent()) {
                Files.writeString(out.get(), "\n" + report, UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                System.out.println("Appended to " + out.get());
            }
        }
        finally {
            setups.forEach(Setup::close);
            TemporaryFiles.deleteRecursively(directory);
        }
    }

    private static Setup single(Path directory)
            throws IOException
    {
        OntulServerProcess process = OntulServerProcess.start(conf(directory, Map.of()), directory.resolve("data"), OntulServerProcess.freePort(), directory.resolve("server.log"),
                "4g", List.of());
        return new Setup(SINGLE, process, List.of(process));
    }

    private static Setup cluster(Path directory, String name, int workers, String secret)
            throws IOException
    {
        List<OntulServerProcess> processes = new ArrayList<>();
        int coordinatorPort = OntulServerProcess.freePort();
        OntulServerProcess coordinator = OntulServerProcess.start(conf(directory.resolve("coordinator"), Map.of("ontul.cluster.secret", secret)),
                directory.resolve("coordinator").resolve("data"), coordinatorPort, directory.resolve("coordinator.log"), "3g", List.of("--role", "coordinator"));
        processes.add(coordinator);
        for (int index = 0; index < workers; index++) {
            Path worker = directory.resolve("worker-" + index);
            processes.add(OntulServerProcess.start(conf(worker, Map.of("ontul.cluster.secret", secret, "ontul.cluster.coordinator", "127.0.0.1:" + coordinatorPort)),
                    worker.resolve("data"), OntulServerProcess.freePort(), directory.resolve("worker-" + index + ".log"), "3g", List.of("--role", "worker")));
        }
        return new Setup(name, coordinator, processes);
    }

    private static Path conf(Path directory, Map<String, String> properties)
            throws IOException
    {
        Path conf = directory.resolve("conf");
        Files.createDirectories(conf);
        StringBuilder text = new StringBuilder();
        properties.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
        Files.writeString(conf.resolve("ontul.properties"), text.toString(), UTF_8);
        return conf;
    }

    private static void awaitWorkers(Setup setup, int workers)
            throws Exception
    {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (true) {
            try (Connection connection = setup.entry().connect(); Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("SELECT count(*) FROM system.runtime.nodes WHERE role = 'worker' AND state = 'active'")) {
                rows.next();
                if (rows.getLong(1) == workers) {
                    return;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(setup.name() + ": the workers did not register");
            }
            Thread.sleep(100);
        }
    }

    /** Runs the query once; returns its rows as text, or null when it failed. */
    private List<String> runOnce(Setup setup, String sql, Measurement measurement, boolean timed)
            throws Exception
    {
        try (Connection connection = setup.entry().connect(); Statement statement = connection.createStatement()) {
            long start = System.nanoTime();
            Future<List<String>> rows = runner.submit(() -> {
                List<String> all = new ArrayList<>();
                try (ResultSet result = statement.executeQuery(sql)) {
                    int columns = result.getMetaData().getColumnCount();
                    while (result.next()) {
                        StringBuilder row = new StringBuilder();
                        for (int column = 1; column <= columns; column++) {
                            Object value = result.getObject(column);
                            row.append(value instanceof Double number ? String.format(Locale.ROOT, "%.4f", number) : String.valueOf(value)).append('|');
                        }
                        all.add(row.toString());
                    }
                }
                return all;
            });
            List<String> result;
            try {
                result = rows.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            catch (TimeoutException e) {
                statement.cancel();
                measurement.failures.put(setup.name(), "timed out after " + TIMEOUT_SECONDS + " s");
                return null;
            }
            catch (java.util.concurrent.ExecutionException e) {
                measurement.failures.put(setup.name(), String.valueOf(e.getCause().getMessage()).lines().findFirst().orElse(""));
                return null;
            }
            long elapsed = System.nanoTime() - start;
            if (timed) {
                measurement.bestNanos.merge(setup.name(), elapsed, Math::min);
                // the query just run is the latest that finished on this setup: the benchmark runs one at a time
                try (ResultSet exchanged = statement.executeQuery("SELECT exchanged_bytes FROM system.runtime.queries "
                        + "WHERE state = 'FINISHED' AND query NOT LIKE '%system.runtime.queries%' ORDER BY created DESC LIMIT 1")) {
                    if (exchanged.next()) {
                        measurement.exchangedBytes.put(setup.name(), exchanged.getLong(1));
                    }
                }
            }
            result.sort(null);
            return result;
        }
    }

    private static String describe(Measurement measurement, String setup)
    {
        Long nanos = measurement.bestNanos.get(setup);
        return nanos == null ? setup + " failed: " + measurement.failures.get(setup) : String.format(Locale.ROOT, "%s %.2f s", setup, nanos / 1e9);
    }

    private String report(String started, Map<String, Measurement> measurements)
    {
        StringBuilder text = new StringBuilder();
        text.append("## Cluster TPC-H ").append(schema).append(", ").append(started).append("\n\n");
        text.append("- Machine: ").append(TpchBenchmark.machine()).append('\n');
        text.append("- Command: `").append(command).append("`\n");
        text.append(String.format(Locale.ROOT, "- Setups, separate processes on this machine, all reading tpch.%s: %s (4 GB heap); %s; %s (3 GB heap each)%n", schema, SINGLE, ONE_WORKER,
                TWO_WORKERS));
        text.append(String.format(Locale.ROOT, "- Best of %d run(s) after %d warm-up(s); setups alternate per run; results compared across setups%n%n", runs, warmups));
        text.append("| query | single (s) | 1 worker (s) | 2 workers (s) | 1 worker / single | 2 workers / single | shuffled between nodes, 2 workers | check |\n");
        text.append("|---|---:|---:|---:|---:|---:|---:|---|\n");
        double[] totals = new double[3];
        double[] logSums = new double[2];
        int timed = 0;
        for (Map.Entry<String, Measurement> entry : measurements.entrySet()) {
            Measurement measurement = entry.getValue();
            Long single = measurement.bestNanos.get(SINGLE);
            Long one = measurement.bestNanos.get(ONE_WORKER);
            Long two = measurement.bestNanos.get(TWO_WORKERS);
            boolean complete = single != null && one != null && two != null;
            if (complete) {
                totals[0] += single / 1e9;
                totals[1] += one / 1e9;
                totals[2] += two / 1e9;
                logSums[0] += Math.log((double) one / single);
                logSums[1] += Math.log((double) two / single);
                timed++;
            }
            text.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n", entry.getKey(), cell(single), cell(one), cell(two),
                    complete ? String.format(Locale.ROOT, "%.2f×", (double) one / single) : "",
                    complete ? String.format(Locale.ROOT, "%.2f×", (double) two / single) : "",
                    megabytes(measurement.exchangedBytes.getOrDefault(TWO_WORKERS, 0L)),
                    measurement.failures.isEmpty() ? measurement.check : "failed: " + measurement.failures));
        }
        if (timed > 0) {
            text.append(String.format(Locale.ROOT, "| total (%d queries) | %.1f | %.1f | %.1f | %.2f× (geomean %.2f×) | %.2f× (geomean %.2f×) | | |%n", timed, totals[0], totals[1], totals[2],
                    totals[1] / totals[0], Math.exp(logSums[0] / timed), totals[2] / totals[0], Math.exp(logSums[1] / timed)));
        }
        return text.toString();
    }

    private static String cell(Long nanos)
    {
        return nanos == null ? "failed" : String.format(Locale.ROOT, "%.2f", nanos / 1e9);
    }

    private static String megabytes(long bytes)
    {
        return bytes >= 1_000_000 ? String.format(Locale.ROOT, "%.1f MB", bytes / 1e6) : String.format(Locale.ROOT, "%.1f kB", bytes / 1e3);
    }

    private static void progress(String format, Object... arguments)
    {
        System.out.println(String.format(Locale.ROOT, format, arguments));
        System.out.flush();
    }
}
