package io.ontul.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;
import io.ontul.server.testing.HttpTestClient;
import io.ontul.server.testing.HttpTestClient.Response;

/**
 * {@code POST /v1/statements} and {@code /v1/queries} over a real socket, checked against the
 * same statements over JDBC: paged JSON rows past 100,000, one Arrow IPC stream, update counts,
 * error bodies with Flight's message, cancel, and who sees what.
 */
class TestHttpStatements
{
    private static final String PASSWORD = "statements-admin-password";
    private static final String ORDERS = "SELECT o_orderkey, o_totalprice, o_orderdate, o_comment FROM tpch.sf0_1.orders ORDER BY o_orderkey";

    @TempDir
    static Path dataDirectory;

    private static OntulServer server;
    private static HttpTestClient http;
    private static Optional<String> admin;
    private static Optional<String> ann;

    @BeforeAll
    static void startServer()
            throws Exception
    {
        server = OntulServer.start(EngineConfig.embeddedDefaults(), dataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
        http = HttpTestClient.onPort(server.httpPort());
        try (Connection connection = jdbc(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE USER ann PASSWORD 'ann-password'");
        }
        admin = Optional.of(HttpTestClient.bearer(http.login("admin", PASSWORD)));
        ann = Optional.of(HttpTestClient.bearer(http.login("ann", "ann-password")));
    }

    @AfterAll
    static void stopServer()
    {
        if (server != null) {
            server.close();
        }
    }

    private static Connection jdbc()
            throws SQLException
    {
        return DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.port() + "/?useEncryption=false&user=admin&password=" + PASSWORD);
    }

    private static Response statement(Optional<String> user, String sql)
    {
        return http.post("/v1/statements", user, "{\"sql\": " + HttpStatement.quote(sql) + "}");
    }

    @Test
    void aQueryIsReadPageByPagePast100000RowsAndEqualsJdbc()
            throws Exception
    {
        List<String> expected = new ArrayList<>();
        try (Connection connection = jdbc(); Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(ORDERS)) {
            while (rows.next()) {
                expected.add(rows.getLong(1) + "|" + rows.getBigDecimal(2).toPlainString() + "|" + rows.getString(3) + "|" + rows.getString(4));
            }
        }
        assertThat(expected).hasSize(150_000);

        Response first = http.post("/v1/statements", admin, "{\"sql\": " + HttpStatement.quote(ORDERS) + ", \"pageSize\": 20000}");
        assertThat(first.status()).as(first.toString()).isEqualTo(200);
        JsonNode page = first.json();
        assertThat(page.get("columns").toString()).isEqualTo("[{\"name\":\"o_orderkey\",\"type\":\"BIGINT\",\"nullable\":false},"
                + "{\"name\":\"o_totalprice\",\"type\":\"DECIMAL(15,2)\",\"nullable\":false},"
                + "{\"name\":\"o_orderdate\",\"type\":\"DATE\",\"nullable\":false},"
                + "{\"name\":\"o_comment\",\"type\":\"VARCHAR(79)\",\"nullable\":false}]");
        String queryId = page.get("id").asText();
        List<String> actual = new ArrayList<>();
        int pages = 0;
        while (true) {
            pages++;
            assertThat(page.get("page").asInt()).isEqualTo(pages);
            for (JsonNode row : page.get("rows")) {
                actual.add(row.get(0).asLong() + "|" + row.get(1).decimalValue().setScale(2).toPlainString() + "|" + row.get(2).asText() + "|" + row.get(3).asText());
            }
            if (!page.has("nextUri")) {
                assertThat(page.get("state").asText()).isEqualTo("FINISHED");
                break;
            }
            String next = page.get("nextUri").asText();
            assertThat(next).isEqualTo("/v1/queries/" + queryId + "/results?page=" + (pages + 1));
            // another user cannot read it
            assertThat(http.get(next, ann).status()).isEqualTo(404);
            Response response = http.get(next, admin);
            assertThat(response.status()).as(response.toString()).isEqualTo(200);
            // a lost answer is asked for again and comes again
            assertThat(http.get(next, admin).text()).isEqualTo(response.text());
            page = response.json();
        }
        assertThat(pages).isEqualTo(8);
        assertThat(actual).isEqualTo(expected);
        // an earlier page is gone
        Response gone = http.get("/v1/queries/" + queryId + "/results?page=2", admin);
        assertThat(gone.status()).isEqualTo(404);

        Response status = http.get("/v1/queries/" + queryId, admin);
        assertThat(status.json().get("state").asText()).isEqualTo("FINISHED");
        assertThat(status.json().get("rows").asLong()).isEqualTo(150_000);
    }

    @Test
    void anArrowStreamCarriesTheWholeResult()
            throws Exception
    {
        Response response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + "/v1/statements"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"sql\": \"SELECT l_orderkey, l_extendedprice FROM tpch.tiny.lineitem\"}"))
                .header("Authorization", admin.orElseThrow())
                .header("Accept", StatementRoutes.ARROW_STREAM));
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.header("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith(StatementRoutes.ARROW_STREAM));
        assertThat(response.header("X-Ontul-Query-Id")).isPresent();
        long rows = 0;
        long keys = 0;
        BigDecimal prices = BigDecimal.ZERO;
        try (RootAllocator allocator = new RootAllocator(); ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(response.body()), allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            while (reader.loadNextBatch()) {
                BigIntVector key = (BigIntVector) root.getVector("l_orderkey");
                DecimalVector price = (DecimalVector) root.getVector("l_extendedprice");
                for (int row = 0; row < root.getRowCount(); row++) {
                    keys += key.get(row);
                    prices = prices.add(price.getObject(row));
                }
                rows += root.getRowCount();
            }
        }
        try (Connection connection = jdbc(); Statement statement = connection.createStatement();
                ResultSet expected = statement.executeQuery("SELECT count(*), sum(l_orderkey), sum(l_extendedprice) FROM tpch.tiny.lineitem")) {
            expected.next();
            assertThat(rows).isEqualTo(expected.getLong(1));
            assertThat(keys).isEqualTo(expected.getLong(2));
            assertThat(prices).isEqualByComparingTo(expected.getBigDecimal(3));
        }

        // a statement that fails at once gets a JSON error, not a broken stream
        Response failed = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + "/v1/statements"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"sql\": \"SELECT * FROM tpch.tiny.no_such_table\"}"))
                .header("Authorization", admin.orElseThrow())
                .header("Accept", StatementRoutes.ARROW_STREAM));
        assertThat(failed.status()).isBetween(400, 499);
        assertThat(failed.errorMessage()).contains("no_such_table");
    }

    /**
     * A query that fails after its first batches went out cannot change the status any more: the
     * connection is cut, so the client gets an error instead of a stream that merely ends early.
     */
    @Test
    void anArrowStreamThatFailsMidwayIsCutNotEnded()
            throws Exception
    {
        // the cast runs batch by batch over numbered rows: the first batches go out, a later one fails
        String sql = "SELECT r, CAST(CASE WHEN r > 50000 THEN 'not a number' ELSE '1' END AS INTEGER) AS n "
                + "FROM (SELECT row_number() OVER (ORDER BY l_orderkey, l_linenumber) AS r FROM tpch.tiny.lineitem)";
        java.net.http.HttpResponse<java.io.InputStream> response = java.net.http.HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + "/v1/statements"))
                        .POST(HttpRequest.BodyPublishers.ofString("{\"sql\": " + HttpStatement.quote(sql) + "}"))
                        .header("Authorization", admin.orElseThrow())
                        .header("Accept", StatementRoutes.ARROW_STREAM)
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        long rows = 0;
        try (RootAllocator allocator = new RootAllocator(); java.io.InputStream body = response.body();
                ArrowStreamReader reader = new ArrowStreamReader(body, allocator)) {
            long[] read = {0};
            assertThatThrownBy(() -> {
                while (reader.loadNextBatch()) {
                    read[0] += reader.getVectorSchemaRoot().getRowCount();
                }
            }).isInstanceOf(java.io.IOException.class);
            rows = read[0];
        }
        // (how many rows the client saw first depends on when its HTTP client notices the cut: the
        // JDK's drops what it buffered; the point is that no client takes a part for the whole)
        assertThat(rows).as("rows before the failure").isLessThan(60_175);
        // the statement failed, with the cast named, and the server carries on
        String id = response.headers().firstValue("X-Ontul-Query-Id").orElseThrow();
        JsonNode status = http.get("/v1/queries/" + id, admin).json();
        assertThat(status.get("state").asText()).isEqualTo("FAILED");
        assertThat(status.get("error").asText()).contains("not a number");
        assertThat(statement(admin, "SELECT 1").status()).isEqualTo(200);

        // one that fails in its first batch with rows gets a JSON error and its status
        Response early = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + "/v1/statements"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"sql\": \"SELECT CAST(n_name AS INTEGER) FROM tpch.tiny.nation\"}"))
                .header("Authorization", admin.orElseThrow())
                .header("Accept", StatementRoutes.ARROW_STREAM));
        assertThat(early.status()).isEqualTo(400);
        assertThat(early.errorMessage()).contains("ALGERIA");
    }

    @Test
    void statementsThatChangeDataAnswerWithTheirUpdateCount()
            throws Exception
    {
        Response created = statement(admin, "CREATE TABLE memory.default.http_rows AS SELECT n_nationkey, n_name FROM tpch.tiny.nation");
        assertThat(created.status()).as(created.toString()).isEqualTo(200);
        assertThat(created.json().get("updateCount").asLong()).isEqualTo(25);
        Response inserted = statement(admin, "INSERT INTO memory.default.http_rows VALUES (100, 'ATLANTIS'), (101, 'MU')");
        assertThat(inserted.json().get("updateCount").asLong()).isEqualTo(2);
        try (Connection connection = jdbc(); Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery("SELECT count(*) FROM memory.default.http_rows")) {
            rows.next();
            assertThat(rows.getLong(1)).isEqualTo(27);
        }
        // catalog, schema and session properties of the request
        Response scoped = http.post("/v1/statements", admin, "{\"sql\": \"SELECT count(*) AS n FROM http_rows\", \"catalog\": \"memory\", \"schema\": \"default\","
                + " \"properties\": {\"query_max_run_time\": \"1m\"}}");
        assertThat(scoped.status()).as(scoped.toString()).isEqualTo(200);
        assertThat(scoped.json().get("rows").get(0).get(0).asLong()).isEqualTo(27);
        assertThat(server.openHandles()).isZero();
    }

    @Test
    void errorsCarryTheMessageFlightSqlGives()
            throws Exception
    {
        for (String sql : List.of("SELEC 1", "SELECT * FROM tpch.tiny.no_such_table", "SELECT CAST('x' AS INTEGER)")) {
            Response response = statement(admin, sql);
            assertThat(response.status()).as(sql).isBetween(400, 499);
            String message = response.errorMessage();
            assertThat(message).isNotBlank();
            try (Connection connection = jdbc(); Statement statement = connection.createStatement()) {
                // the same words, only the query id differs
                String withoutId = message.replaceAll(" \\(query [0-9a-z_]+\\)$", "");
                assertThatThrownBy(() -> statement.executeQuery(sql)).hasStackTraceContaining(withoutId);
            }
            assertThat(response.json().path("error").path("category").asText()).isEqualTo("USER_ERROR");
        }
        assertThat(statement(admin, "SELEC 1").errorMessage()).contains("line 1:1");
    }

    @Test
    void malformedRequestsNameTheField()
    {
        assertBadRequest("not json", "The body is not JSON");
        assertBadRequest("[1]", "The body must be a JSON object");
        assertBadRequest("{}", "Field 'sql' is required");
        assertBadRequest("{\"sql\": 42}", "Field 'sql' must be a non-empty string");
        assertBadRequest("{\"sql\": \"SELECT 1\", \"pageSize\": 0}", "Field 'pageSize' must be a whole number from 1 to 100000, not 0");
        assertBadRequest("{\"sql\": \"SELECT 1\", \"pageSize\": \"ten\"}", "Field 'pageSize' must be a whole number");
        assertBadRequest("{\"sql\": \"SELECT 1\", \"properties\": [1]}", "Field 'properties' must be an object");
        assertBadRequest("{\"sql\": \"SELECT 1\", \"limit\": 5}", "Unknown field 'limit'");
        Response property = http.post("/v1/statements", admin, "{\"sql\": \"SELECT 1\", \"properties\": {\"no_such_property\": \"1\"}}");
        assertThat(property.status()).isEqualTo(400);
        assertThat(property.errorMessage()).contains("no_such_property");
        Response page = http.get("/v1/queries/20260101_120000_00001_abcde/results?page=x", admin);
        assertThat(page.status()).isEqualTo(400);
        assertThat(page.errorMessage()).startsWith("Query parameter 'page' must be a page number");
        Response id = http.delete("/v1/queries/not-an-id'", admin);
        assertThat(id.status()).isEqualTo(400);
        assertThat(id.errorMessage()).startsWith("Not a query id");
    }

    private static void assertBadRequest(String body, String message)
    {
        Response response = http.post("/v1/statements", admin, body);
        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.errorMessage()).startsWith(message);
    }

    @Test
    void deleteCancelsARunningQueryOfItsOwnerOnly()
            throws Exception
    {
        String marker = "/* http-cancel */ ";
        CompletableFuture<Response> running = CompletableFuture.supplyAsync(() -> statement(admin,
                marker + "SELECT count(*) FROM tpch.sf1.lineitem a JOIN tpch.sf1.orders b ON a.l_orderkey < b.o_orderkey - a.l_partkey"));
        String id = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (id == null && System.nanoTime() < deadline) {
            for (JsonNode query : http.get("/v1/queries", admin).json().get("queries")) {
                if (query.get("query").asText().startsWith(marker) && query.get("state").asText().equals("RUNNING")) {
                    id = query.get("id").asText();
                }
            }
            Thread.sleep(50);
        }
        assertThat(id).as("the query runs").isNotNull();
        // ann sees neither the query nor may she stop it
        assertThat(http.get("/v1/queries", ann).json().get("queries").toString()).doesNotContain(id);
        assertThat(http.get("/v1/queries/" + id, ann).status()).isEqualTo(404);
        Response refused = http.delete("/v1/queries/" + id, ann);
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.errorMessage()).contains("Access denied: user 'ann' cannot kill query " + id);

        Response cancelled = http.delete("/v1/queries/" + id, admin);
        assertThat(cancelled.status()).as(cancelled.toString()).isEqualTo(200);
        Response answer = running.get(60, TimeUnit.SECONDS);
        assertThat(answer.status()).isEqualTo(409);
        assertThat(answer.json().path("error").path("code").asText()).isEqualTo("QUERY_CANCELLED");
        assertThat(answer.errorMessage()).contains("Query " + id + " was killed by admin");
        assertThat(http.get("/v1/queries/" + id, admin).json().get("state").asText()).isEqualTo("CANCELLED");
        // a second cancel says it is over
        Response again = http.delete("/v1/queries/" + id, admin);
        assertThat(again.status()).isEqualTo(400);
        assertThat(again.errorMessage()).contains("is not running: it is already CANCELLED");
    }

    @Test
    void aResultNotReadToItsEndIsClosedByDelete()
    {
        Response first = http.post("/v1/statements", admin, "{\"sql\": \"SELECT * FROM tpch.tiny.lineitem\", \"pageSize\": 10}");
        assertThat(first.json().has("nextUri")).isTrue();
        assertThat(server.openHandles()).isPositive();
        String id = first.json().get("id").asText();
        assertThat(http.get("/v1/queries/" + id, admin).json().get("state").asText()).isEqualTo("RUNNING");
        assertThat(http.delete("/v1/queries/" + id, admin).status()).isEqualTo(200);
        assertThat(http.get(first.json().get("nextUri").asText(), admin).status()).isEqualTo(404);
        assertThat(http.get("/v1/queries/" + id, admin).json().get("state").asText()).isEqualTo("CANCELLED");
    }
}
