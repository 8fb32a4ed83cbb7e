package io.ontul.bench;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;

/**
 * TPC-H over JDBC: the 22 queries on Ontul's Flight SQL server (started in this JVM on a free
 * port of 127.0.0.1, with {@code memory} tables filled from {@code tpch}), reached through
 * Arrow's Flight SQL JDBC driver, side by side with DuckDB through its JDBC driver. The run is
 * {@link TpchBenchmark}'s with {@link FlightJdbcTpchContenders}; the options are the same
 * ({@link BenchmarkOptions#USAGE}). Run it with {@code bench/run-flight.sh jdbc ...}.
 */
public final class JdbcTpchBenchmark
{
    private JdbcTpchBenchmark() {}

    public static void main(String[] args)
            throws Exception
    {
        if (Stream.of(args).anyMatch(arg -> arg.equals("--help") || arg.equals("-h"))) {
            System.out.println(BenchmarkOptions.USAGE.replace("TpchBenchmark", "JdbcTpchBenchmark"));
            return;
        }
        BenchmarkOptions options;
        try {
            options = BenchmarkOptions.parse(args);
        }
        catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(BenchmarkOptions.USAGE.replace("TpchBenchmark", "JdbcTpchBenchmark"));
            System.exit(2);
            return;
        }
        String command = System.getProperty("ontul.bench.command", "java io.ontul.bench.JdbcTpchBenchmark " + String.join(" ", args));
        Path dataDirectory = Files.createTempDirectory("ontul-bench-server");
        String password = UUID.randomUUID().toString();
        try (OntulServer server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(password),
                new PrintStream(OutputStream.nullOutputStream()))) {
            new TpchBenchmark(options, command, "TPC-H over JDBC", duckDb -> FlightJdbcTpchContenders.open(server, password, duckDb)).run();
        }
        finally {
            TemporaryFiles.deleteRecursively(dataDirectory);
        }
        // DuckDB's, Arrow's and the JDBC driver's threads must not keep the JVM alive
        System.exit(0);
    }
}
