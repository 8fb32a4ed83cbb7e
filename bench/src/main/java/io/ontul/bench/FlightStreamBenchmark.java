package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.server.OntulServer;

/**
 * Streams TPC-H lineitem ({@code SELECT *}) out of Ontul's Flight SQL server through Arrow's
 * FlightSqlClient, side by side with a plain Arrow Flight server that sends the same batches
 * from memory ({@link ReplayFlightProducer}): the batches are recorded once by reading
 * {@code tpch.sfN.lineitem} through the engine. The plain server runs three ways of waiting
 * for gRPC flow control; the first, which never waits, is the reference the others are compared
 * with. Ontul is read twice, from the tpch generator
 * (data made on the fly) and from a copy in a memory table, which leaves the Flight path as the
 * main difference to the plain server; the same two queries through the engine in this JVM,
 * without Flight, show the engine's own share. All servers and clients share this JVM.
 * <p>
 * After the warm-up runs, the cases run one after the other in rounds; each case's median run
 * counts. Run it with {@code bench/run-flight.sh stream}; see {@link FlightStreamOptions#USAGE}.
 */
public final class FlightStreamBenchmark
{
    private static final double THROUGHPUT_GOAL = 0.9;
    private static final long FIRST_BATCH_GOAL_MILLIS = 50;

    private final FlightStreamOptions options;
    private final String command;

    public FlightStreamBenchmark(FlightStreamOptions options, String command)
    {
        this.options = requireNonNull(options, "options is null");
        this.command = requireNonNull(command, "command is null");
    }

    public static void main(String[] args)
            throws Exception
    {
        if (Stream.of(args).anyMatch(arg -> arg.equals("--help") || arg.equals("-h"))) {
            System.out.println(FlightStreamOptions.USAGE);
            return;
        }
        FlightStreamOptions options;
        try {
            options = FlightStreamOptions.parse(args);
        }
        catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(FlightStreamOptions.USAGE);
            System.exit(2);
            return;
        }
        String command = System.getProperty("ontul.bench.command", "java io.ontul.bench.FlightStreamBenchmark " + String.join(" ", args));
        new FlightStreamBenchmark(options, command).run();
        // gRPC's and Arrow's threads must not keep the JVM alive
        System.exit(0);
    }

    public void run()
            throws Exception
    {
        String started = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm"));
        String generated = "tpch." + options.schema() + ".lineitem";
        String copied = "memory.default.lineitem";
        List<String> facts = new ArrayList<>();
        facts.add("Machine: " + TpchBenchmark.machine());
        facts.add("Java: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + ", max heap " + TpchBenchmark.gibibytes(Runtime.getRuntime().maxMemory()));
        facts.add("Command: `" + command + "`");
        facts.add(String.format(Locale.ROOT, "Median of %d run(s) per case after %d warm-up run(s); the cases take turns, one run each per round", options.runs(), options.warmups()));

        Path dataDirectory = Files.createTempDirectory("ontul-bench-server");
        String password = UUID.randomUUID().toString();
        try (OntulServer server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(password),
                new PrintStream(OutputStream.nullOutputStream()))) {
            Session session = server.engine().createSession(OntulServer.ADMIN_USER);
            session.execute("SET SESSION query_max_memory = '8GB'").close();

            progress("Loading %s from %s", copied, generated);
            long start = System.nanoTime();
            long copiedRows = update(session, "CREATE TABLE " + copied + " AS SELECT * FROM " + generated);
            facts.add(String.format(Locale.ROOT, "Setup (not timed): `CREATE TABLE %s AS SELECT * FROM %s` through the engine, %d rows in %s",
                    copied, generated, copiedRows, seconds(System.nanoTime() - start)));

            if (options.jdbc()) {
                measureJdbc(server, password, copied, facts, started);
                return;
            }
            progress("Recording the batches of %s for the plain Flight server", generated);
            BufferAllocator engineRoot = server.engine().rootAllocator();
            start = System.nanoTime();
            try (BufferAllocator recordedMemory = engineRoot.newChildAllocator("bench-recorded", 0, Long.MAX_VALUE);
                    RecordedBatches recorded = record(session, "SELECT * FROM " + generated, recordedMemory);
                    BufferAllocator rawMemory = engineRoot.newChildAllocator("bench-raw-flight", 0, Long.MAX_VALUE)) {
                ReplayFlightProducer replay = new ReplayFlightProducer(recorded, rawMemory);
                facts.add(String.format(Locale.ROOT,
                        "Setup (not timed): `SELECT * FROM %s` read once through the engine and held in memory for the plain Flight server: %d rows, %d batches, %.0f MB of Arrow buffers, in %s",
                        generated, recorded.rows(), recorded.batches().size(), recorded.bytes() / 1e6, seconds(System.nanoTime() - start)));
                measure(server, password, session, replay, rawMemory, generated, copied, facts, started);
            }
        }
        finally {
            TemporaryFiles.deleteRecursively(dataDirectory);
        }
    }

    /** Starts the plain server and the clients, runs every case and reports. */
    private void measure(OntulServer server, String password, Session session, ReplayFlightProducer replay, BufferAllocator rawMemory,
            String generated, String copied, List<String> facts, String started)
            throws Exception
    {
        try (FlightServer raw = FlightServer.builder(rawMemory, Location.forGrpcInsecure("127.0.0.1", 0), replay).build().start();
                BufferAllocator clientMemory = new RootAllocator();
                FlightClient ontulClient = FlightClient.builder(clientMemory, Location.forGrpcInsecure("127.0.0.1", server.port())).build();
                FlightClient rawClient = FlightClient.builder(clientMemory, Location.forGrpcInsecure("127.0.0.1", raw.getPort())).build()) {
            CredentialCallOption bearer = ontulClient.authenticateBasicToken(OntulServer.ADMIN_USER, password).orElseThrow();
            FlightSqlClient ontul = new FlightSqlClient(ontulClient);

            List<StreamMeasurement> cases = new ArrayList<>();
            for (ReplayFlightProducer.FlowControl flowControl : ReplayFlightProducer.FlowControl.values()) {
                cases.add(new StreamMeasurement(new FlightStreamCase(
                        "Plain Arrow Flight, recorded batches, " + flowControl.description(), rawClient, flowControl.descriptor())));
            }
            StreamMeasurement plain = cases.get(0);
            StreamMeasurement ontulCopied = new StreamMeasurement(new FlightSqlStreamCase(
                    "Ontul Flight SQL, " + copied, ontul, bearer, "SELECT * FROM " + copied));
            StreamMeasurement ontulGenerated = new StreamMeasurement(new FlightSqlStreamCase(
                    "Ontul Flight SQL, " + generated + " (generated)", ontul, bearer, "SELECT * FROM " + generated));
            cases.add(ontulCopied);
            cases.add(ontulGenerated);
            cases.add(new StreamMeasurement(new EngineStreamCase(
                    "Ontul engine in-process, no Flight, " + copied, session, "SELECT * FROM " + copied)));
            cases.add(new StreamMeasurement(new EngineStreamCase(
                    "Ontul engine in-process, no Flight, " + generated + " (generated)", session, "SELECT * FROM " + generated)));

            Map<String, String> waitStatistics = runRounds(cases, replay);

            facts.add("Servers and client in this JVM on 127.0.0.1 (the client's decoding competes with the servers for the same cores). "
                    + "Ontul: OntulServer, bearer token from basic auth; plain: FlightServer with ReplayFlightProducer, no auth");
            facts.add("Times run from the call that starts the query (FlightSqlClient.execute, FlightClient.getInfo, Session.execute) "
                    + "to the end of the stream; first batch: to the first batch with rows in the client. MB = 10^6 bytes of Arrow buffers received "
                    + "(validity, offsets, data). Throughput vs raw = median time of the first line / median time of the case");
            waitStatistics.forEach((name, statistics) -> facts.add("Last run of \"" + name + "\": " + statistics));
            StreamReport report = new StreamReport("Flight stream, SELECT * FROM lineitem " + options.schema() + ", " + started,
                    facts, cases, plain, conclusions(plain, ontulCopied, ontulGenerated));
            System.out.println();
            System.out.print(report.text());
            if (options.out().isPresent()) {
                report.appendTo(options.out().get());
                System.out.println();
                System.out.println("Appended to " + options.out().get());
            }
        }
    }

    /**
     * The JDBC drivers reading the memory table with typed getters (JdbcReadCase): the project's
     * driver, the same with Arrow's result sets (arrowResults=true) and Arrow's own Flight SQL
     * JDBC driver, against FlightSqlClient reading the same stream into vectors.
     */
    private void measureJdbc(OntulServer server, String password, String copied, List<String> facts, String started)
            throws Exception
    {
        String sql = "SELECT * FROM " + copied;
        String ontulUrl = "jdbc:ontul://127.0.0.1:" + server.port() + "?user=" + OntulServer.ADMIN_USER + "&password=" + password;
        String arrowUrl = "jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false&user=" + OntulServer.ADMIN_USER + "&password=" + password;
        try (BufferAllocator clientMemory = new RootAllocator();
                FlightClient ontulClient = FlightClient.builder(clientMemory, Location.forGrpcInsecure("127.0.0.1", server.port())).build();
                Connection direct = DriverManager.getConnection(ontulUrl);
                Connection arrowResults = DriverManager.getConnection(ontulUrl + "&arrowResults=true");
                Connection stock = DriverManager.getConnection(arrowUrl)) {
            CredentialCallOption bearer = ontulClient.authenticateBasicToken(OntulServer.ADMIN_USER, password).orElseThrow();
            StreamMeasurement client = new StreamMeasurement(new FlightSqlStreamCase(
                    "FlightSqlClient, batches into vectors (no values read)", new FlightSqlClient(ontulClient), bearer, sql));
            StreamMeasurement ontul = new StreamMeasurement(new JdbcReadCase(
                    "Ontul JDBC driver " + direct.getMetaData().getDriverVersion() + " (jdbc:ontul://), typed getters", direct, sql));
            StreamMeasurement ontulArrow = new StreamMeasurement(new JdbcReadCase(
                    "Ontul JDBC driver, arrowResults=true (Arrow's result sets), typed getters", arrowResults, sql));
            StreamMeasurement arrow = new StreamMeasurement(new JdbcReadCase(
                    "Arrow Flight SQL JDBC driver " + stock.getMetaData().getDriverVersion() + " (stock), typed getters", stock, sql));
            List<StreamMeasurement> cases = List.of(client, ontul, ontulArrow, arrow);
            runRounds(cases, null);
            facts.add("Server and clients in this JVM on 127.0.0.1 (the client's decoding competes with the server for the same cores); each JDBC case "
                    + "reads every column of every row with the getter of its type (getLong, getInt, getBigDecimal, getString, getDate) into a checksum");
            facts.add("Times run from the call that starts the query to the end of the result; first batch: to the first row (JDBC) or batch. "
                    + "Throughput vs raw = FlightSqlClient's median time / the case's (the first line is the reference here)");
            List<String> conclusions = new ArrayList<>();
            conclusions.add("Goals (issue 30): the project's driver at least 5x Arrow's stock driver, and at least 0.8x FlightSqlClient reading the same stream into vectors.");
            if (ontul.timed() && arrow.timed() && client.timed()) {
                double overStock = (double) arrow.medianNanos() / ontul.medianNanos();
                double ofClient = (double) client.medianNanos() / ontul.medianNanos();
                conclusions.add(String.format(Locale.ROOT, "Ontul's driver: %.2fx Arrow's stock driver (%s), %.2fx FlightSqlClient (%s); %.2f M rows/s.",
                        overStock, overStock >= 5 ? "goal met" : "goal missed", ofClient, ofClient >= 0.8 ? "goal met" : "goal missed",
                        ontul.rows() / (ontul.medianNanos() / 1e9) / 1e6));
            }
            for (StreamMeasurement measurement : cases) {
                measurement.failure().ifPresent(failure -> conclusions.add(measurement.name() + ": FAILED: " + failure));
            }
            StreamReport report = new StreamReport("JDBC read, SELECT * FROM " + copied + " " + options.schema() + ", " + started,
                    facts, cases, client, conclusions);
            System.out.println();
            System.out.print(report.text());
            if (options.out().isPresent()) {
                report.appendTo(options.out().get());
                System.out.println();
                System.out.println("Appended to " + options.out().get());
            }
        }
    }

    /** The warm-up rounds, then the timed ones; returns the plain server's wait statistics by case (none without a replay server). */
    private Map<String, String> runRounds(List<StreamMeasurement> cases, ReplayFlightProducer replay)
    {
        Map<String, String> waitStatistics = new LinkedHashMap<>();
        for (int round = 0; round < options.warmups(); round++) {
            progress("Warm-up %d of %d", round + 1, options.warmups());
            runRound(cases, false, replay, waitStatistics);
        }
        for (int round = 0; round < options.runs(); round++) {
            progress("Run %d of %d", round + 1, options.runs());
            runRound(cases, true, replay, waitStatistics);
        }
        return waitStatistics;
    }

    private static void runRound(List<StreamMeasurement> cases, boolean timed, ReplayFlightProducer replay, Map<String, String> waitStatistics)
    {
        for (StreamMeasurement measurement : cases) {
            if (measurement.failure().isPresent()) {
                continue;
            }
            try {
                StreamRun run = measurement.streamCase().read();
                if (timed) {
                    measurement.record(run);
                }
                String statistics = replay == null ? "0 waits" : replay.takeWaitStatistics();
                if (!statistics.startsWith("0 waits")) {
                    waitStatistics.put(measurement.name(), statistics);
                }
                progress("  %-80s %8.0f ms  first batch %6.1f ms  %d rows  %d batches%s",
                        measurement.name(), run.totalNanos() / 1e6, run.firstBatchNanos() / 1e6, run.rows(), run.batches(),
                        statistics.startsWith("0 waits") ? "" : "  (" + statistics + ")");
            }
            catch (Exception | Error e) {
                String message = e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).lines().findFirst().orElse("");
                measurement.fail(message);
                progress("  %s FAILED: %s", measurement.name(), message);
            }
        }
    }

    /** One line per Ontul case against the goals: throughput relative to the plain server, first batch. */
    private static List<String> conclusions(StreamMeasurement plain, StreamMeasurement... ontulCases)
    {
        List<String> conclusions = new ArrayList<>();
        conclusions.add(String.format(Locale.ROOT, "Goals: Ontul over Flight at least %.1fx the plain server's throughput; first batch within %d ms.",
                THROUGHPUT_GOAL, FIRST_BATCH_GOAL_MILLIS));
        for (StreamMeasurement measurement : ontulCases) {
            if (measurement.failure().isPresent()) {
                conclusions.add(measurement.name() + ": FAILED: " + measurement.failure().get());
            }
            else if (measurement.timed() && plain.timed()) {
                double ratio = (double) plain.medianNanos() / measurement.medianNanos();
                double firstBatchMillis = measurement.medianFirstBatchNanos() / 1e6;
                conclusions.add(String.format(Locale.ROOT, "%s: %.2fx the plain server's throughput (%s), first batch %.1f ms (%s).",
                        measurement.name(), ratio, ratio >= THROUGHPUT_GOAL ? "goal met" : "goal missed",
                        firstBatchMillis, firstBatchMillis <= FIRST_BATCH_GOAL_MILLIS ? "goal met" : "goal missed"));
            }
        }
        return conclusions;
    }

    private static long update(Session session, String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            long rows = 0;
            VectorSchemaRoot batch;
            while ((batch = result.nextBatch()) != null) {
                if (batch.getRowCount() > 0) {
                    rows += ((Number) batch.getVector(0).getObject(0)).longValue();
                }
            }
            return rows;
        }
    }

    private static RecordedBatches record(Session session, String sql, BufferAllocator allocator)
    {
        try (QueryResult result = session.execute(sql)) {
            return RecordedBatches.record(result, allocator);
        }
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
