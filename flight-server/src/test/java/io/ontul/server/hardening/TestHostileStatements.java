package io.ontul.server.hardening;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;

/**
 * Statements a careless or hostile user may send, run by a user who is not an administrator
 * against a real server over Flight SQL: each answers correctly (checked against a value
 * computed here) or fails with a user error or a resources error whose message is short, in
 * bounded time, with little written to the log; meanwhile a second client keeps getting correct
 * answers, and afterwards the server still answers.
 */
class TestHostileStatements
{
    private static final String ADMIN_PASSWORD = "admin-password-hostile";
    private static final String USER_PASSWORD = "mallory-password-1";
    private static final int MAX_MESSAGE_BYTES = 4096;
    private static final int MAX_LOG_BYTES_PER_STATEMENT = 8192;
    private static final long MAX_SECONDS_PER_STATEMENT = 120;

    @TempDir
    static Path dataDirectory;

    private static OntulServer server;
    private static BufferAllocator allocator;

    @BeforeAll
    static void start()
            throws Exception
    {
        server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(ADMIN_PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
        allocator = new RootAllocator();
        try (FlightClient client = connect(); FlightSqlClient sql = new FlightSqlClient(client)) {
            CredentialCallOption admin = client.authenticateBasicToken("admin", ADMIN_PASSWORD).orElseThrow();
            sql.executeUpdate("CREATE USER mallory PASSWORD '" + USER_PASSWORD + "'", admin);
            sql.executeUpdate("GRANT SELECT ON CATALOG tpch TO USER mallory", admin);
        }
    }

    @AfterAll
    static void stop()
    {
        if (allocator != null) {
            allocator.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static FlightClient connect()
    {
        return FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", server.port())).build();
    }

    /** A statement and what it must give: the first row's values as text, or an error containing a text. */
    private record Case(String name, String sql, List<String> firstRow, String errorText)
    {
        static Case answers(String name, String sql, String... firstRow)
        {
            return new Case(name, sql, List.of(firstRow), null);
        }

        static Case fails(String name, String sql, String errorText)
        {
            return new Case(name, sql, null, errorText);
        }
    }

    private static String repeatJoined(int count, String separator, java.util.function.IntFunction<String> item)
    {
        return IntStream.range(0, count).mapToObj(item).collect(Collectors.joining(separator));
    }

    private static List<Case> cases()
    {
        List<Case> cases = new ArrayList<>();
        // the inputs of issue 23
        cases.add(Case.answers("5,000 text literals in IN",
                "SELECT count(*) FROM tpch.tiny.nation WHERE n_name IN ('ALGERIA', 'BRAZIL', " + repeatJoined(5000, ", ", i -> "'N%07d'".formatted(i)) + ")", "2"));
        cases.add(Case.answers("1,000 ORs",
                "SELECT count(*) FROM tpch.tiny.nation WHERE " + repeatJoined(1000, " OR ", i -> "n_nationkey = " + i), "25"));
        cases.add(Case.answers("IN (0, ..., 999)",
                "SELECT count(*) FROM tpch.tiny.nation WHERE n_nationkey IN (" + repeatJoined(1000, ", ", String::valueOf) + ")", "25"));
        cases.add(Case.answers("90,000 numbers in IN",
                "SELECT count(*) FROM tpch.tiny.nation WHERE n_nationkey IN (" + repeatJoined(90_000, ", ", i -> String.valueOf(i * 2 + 1)) + ")", "12"));
        cases.add(Case.fails("5,000 nested parentheses",
                "SELECT " + "(".repeat(5000) + "1" + ")".repeat(5000), "line 1:208: Statement is nested too deeply: more than 200 levels"));
        // and more
        cases.add(Case.fails("CUBE of 20 columns (a million grouping sets)",
                "SELECT count(*) FROM tpch.tiny.lineitem GROUP BY CUBE(" + repeatJoined(20, ", ", i -> "l_orderkey + " + i) + ")",
                "GROUP BY makes 1,048,576 grouping sets; at most 2,048 are allowed (ontul.query.max-grouping-sets)"));
        cases.add(Case.answers("CUBE of 8 columns",
                "SELECT count(*) FROM (SELECT count(*) FROM tpch.tiny.nation GROUP BY CUBE(" + repeatJoined(8, ", ", i -> "n_nationkey + " + i) + "))", "6376"));
        cases.add(Case.answers("NOT IN 5,000 numbers",
                "SELECT count(*) FROM tpch.tiny.nation WHERE n_nationkey NOT IN (" + repeatJoined(5000, ", ", i -> String.valueOf(i + 10)) + ")", "10"));
        cases.add(Case.answers("CASE with 3,000 branches",
                "SELECT sum(CASE " + repeatJoined(3000, " ", i -> "WHEN n_nationkey = " + i + " THEN " + (i * 2)) + " END) FROM tpch.tiny.nation", "600"));
        cases.add(Case.answers("20,000 rows of VALUES",
                "SELECT count(*), sum(x) FROM (VALUES " + repeatJoined(20_000, ", ", i -> "(" + i + ")") + ") AS t(x)", "20000", "199990000"));
        cases.add(Case.answers("LIKE with a 6,000-character pattern",
                "SELECT count(*) FROM tpch.tiny.nation WHERE n_comment LIKE '" + "%a".repeat(3000) + "%z'", "0"));
        cases.add(Case.answers("a 500,000-character string literal",
                "SELECT char_length('" + "x".repeat(500_000) + "')", "500000"));
        cases.add(Case.answers("2,000 computed columns",
                "SELECT " + repeatJoined(2000, ", ", i -> "n_nationkey + " + i) + " FROM tpch.tiny.nation WHERE n_nationkey = 3",
                IntStream.range(0, 2000).mapToObj(i -> String.valueOf(3 + i)).toArray(String[]::new)));
        cases.add(Case.answers("AND of 2,000 conditions",
                "SELECT count(*) FROM tpch.tiny.nation WHERE " + repeatJoined(2000, " AND ", i -> "n_nationkey <> " + (i + 20)), "20"));
        cases.add(Case.answers("COALESCE of 1,000 arguments",
                "SELECT sum(COALESCE(" + repeatJoined(1000, ", ", i -> "CASE WHEN n_nationkey = " + i + " THEN " + i + " END") + ")) FROM tpch.tiny.nation", "300"));
        cases.add(Case.answers("190 nested function calls",
                "SELECT " + "abs(".repeat(190) + "-1" + ")".repeat(190), "1"));
        cases.add(Case.fails("1,000 chained additions",
                "SELECT " + "1 + ".repeat(1000) + "1", "Statement is nested too deeply"));
        cases.add(Case.fails("300 nested subqueries",
                "SELECT * FROM (".repeat(300) + "SELECT 1 AS x" + ") t".repeat(300), "Statement is nested too deeply"));
        cases.add(Case.fails("2,000 UNION ALL branches",
                "SELECT count(*) FROM (" + repeatJoined(2000, " UNION ALL ", i -> "SELECT " + i) + ")", "Statement is nested too deeply"));
        cases.add(Case.fails("20,000 ORs, past what the parser follows",
                "SELECT count(*) FROM tpch.tiny.nation WHERE " + repeatJoined(20_000, " OR ", i -> "n_nationkey = " + i), "Statement is too complex to parse"));
        cases.add(Case.fails("a statement over 1,000,000 characters",
                "SELECT '" + "y".repeat(1_000_001) + "'", "Statement is too long: 1,000,010 characters; at most 1,000,000 are allowed"));
        cases.add(Case.fails("a session raising its memory limit",
                "SET SESSION query_max_memory = '100GB'", "query_max_memory '100GB' is above the server's limit of 2GB"));
        cases.add(Case.fails("a 2,000-character identifier",
                "SELECT " + "c".repeat(2000) + " FROM tpch.tiny.nation", "Length of identifier"));
        cases.add(Case.fails("an unknown table in a long statement",
                "SELECT count(*) FROM tpch.tiny.nowhere WHERE " + repeatJoined(3000, " OR ", i -> "x = " + i), "Table 'tpch.tiny.nowhere' does not exist"));
        return cases;
    }

    @Test
    void everyHostileStatementAnswersOrFailsCleanlyWhileAnotherClientIsServed()
            throws Exception
    {
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong served = new AtomicLong();
        ConcurrentLinkedQueue<String> bystanderFailures = new ConcurrentLinkedQueue<>();
        Thread bystander = new Thread(() -> {
            try (FlightClient client = connect(); FlightSqlClient sql = new FlightSqlClient(client)) {
                CredentialCallOption admin = client.authenticateBasicToken("admin", ADMIN_PASSWORD).orElseThrow();
                while (running.get()) {
                    List<String> row = firstRow(sql, admin, "SELECT count(*), sum(n_regionkey) FROM tpch.tiny.nation");
                    if (!row.equals(List.of("25", "50"))) {
                        bystanderFailures.add("wrong answer " + row);
                    }
                    served.incrementAndGet();
                }
            }
            catch (Exception e) {
                bystanderFailures.add(e.toString());
            }
        }, "bystander");
        bystander.start();

        PrintStream originalErr = System.err;
        List<String> problems = new ArrayList<>();
        try (FlightClient client = connect(); FlightSqlClient sql = new FlightSqlClient(client)) {
            CredentialCallOption mallory = client.authenticateBasicToken("mallory", USER_PASSWORD).orElseThrow();
            for (Case test : cases()) {
                ByteArrayOutputStream log = new ByteArrayOutputStream();
                // slf4j-simple writes to the System.err of the moment
                System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
                long start = System.nanoTime();
                try {
                    List<String> row = firstRow(sql, mallory, test.sql());
                    if (test.firstRow() == null) {
                        problems.add(test.name() + ": answered " + abbreviate(row.toString()) + " instead of failing with '" + test.errorText() + "'");
                    }
                    else if (!row.equals(test.firstRow())) {
                        problems.add(test.name() + ": answered " + abbreviate(row.toString()) + ", expected " + abbreviate(test.firstRow().toString()));
                    }
                }
                catch (FlightRuntimeException e) {
                    String message = String.valueOf(e.status().description());
                    FlightStatusCode code = e.status().code();
                    if (test.errorText() == null) {
                        problems.add(test.name() + ": failed with " + code + " " + abbreviate(message));
                    }
                    else if (!message.contains(test.errorText())) {
                        problems.add(test.name() + ": failed with " + code + " " + abbreviate(message) + ", expected a message containing '" + test.errorText() + "'");
                    }
                    if (code != FlightStatusCode.INVALID_ARGUMENT && code != FlightStatusCode.NOT_FOUND && code != FlightStatusCode.RESOURCE_EXHAUSTED
                            && code != FlightStatusCode.UNAUTHORIZED) {
                        problems.add(test.name() + ": status " + code + " is neither a user error nor a resources error");
                    }
                    if (message.getBytes(StandardCharsets.UTF_8).length > MAX_MESSAGE_BYTES) {
                        problems.add(test.name() + ": message of " + message.length() + " characters");
                    }
                }
                finally {
                    System.setErr(originalErr);
                }
                long seconds = (System.nanoTime() - start) / 1_000_000_000L;
                if (seconds > MAX_SECONDS_PER_STATEMENT) {
                    problems.add(test.name() + ": took " + seconds + " s");
                }
                if (log.size() > MAX_LOG_BYTES_PER_STATEMENT) {
                    problems.add(test.name() + ": wrote " + log.size() + " bytes to the log: " + abbreviate(log.toString(StandardCharsets.UTF_8)));
                }
            }
            // the hostile user's own session still works
            assertThat(firstRow(sql, mallory, "SELECT count(*) FROM tpch.tiny.region")).containsExactly("5");
        }
        finally {
            running.set(false);
            bystander.join();
        }
        if (!problems.isEmpty()) {
            fail(String.join("\n", problems));
        }
        assertThat(bystanderFailures).isEmpty();
        assertThat(served.get()).as("answers the other client got meanwhile").isGreaterThan(10);
    }

    private static String abbreviate(String text)
    {
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }

    /** The first row of a statement's result, each value as text (an update: its count). */
    private static List<String> firstRow(FlightSqlClient sql, CredentialCallOption bearer, String statement)
            throws Exception
    {
        if (statement.startsWith("SET ")) {
            return List.of(String.valueOf(sql.executeUpdate(statement, bearer)));
        }
        FlightInfo info = sql.execute(statement, bearer);
        try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(), bearer)) {
            List<String> row = null;
            while (stream.next()) {
                VectorSchemaRoot root = stream.getRoot();
                if (row == null && root.getRowCount() > 0) {
                    row = new ArrayList<>();
                    for (FieldVector vector : root.getFieldVectors()) {
                        row.add(String.valueOf(vector.getObject(0)));
                    }
                }
            }
            return row == null ? List.of() : row;
        }
    }
}
