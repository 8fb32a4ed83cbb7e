package io.ontul.server.http;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.ipc.message.MessageSerializer;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.QueryStatus;
import io.ontul.engine.api.Session;

/**
 * Statements over HTTP, each run in a session of its own for the caller:
 * <ul>
 * <li>{@code POST /v1/statements} runs one statement; a query answers with its first page of rows
 *     as JSON (columns with their SQL types, rows as arrays) and a {@code nextUri} while more rows
 *     follow; a statement that changes data answers with its {@code updateCount}. With {@code
 *     Accept: application/vnd.apache.arrow.stream} the whole result comes as one Arrow IPC stream.</li>
 * <li>{@code GET /v1/queries/{id}/results?page=N}: the next page (or the last one again).</li>
 * <li>{@code GET /v1/queries}, {@code GET /v1/queries/{id}}: statements running and recent, as
 *     {@code system.runtime.queries} shows them (an administrator sees all, others their own).</li>
 * <li>{@code DELETE /v1/queries/{id}}: cancels a statement, as {@code CALL system.kill_query} does.</li>
 * </ul>
 */
public final class StatementRoutes
        implements AutoCloseable
{
    public static final String ARROW_STREAM = "application/vnd.apache.arrow.stream";
    private static final Pattern QUERY_ID = Pattern.compile("[A-Za-z0-9_]{1,100}");

    private final Engine engine;
    private final HttpStatements statements = new HttpStatements();

    public StatementRoutes(Engine engine)
    {
        this.engine = requireNonNull(engine, "engine is null");
    }

    public void register(RoutesConfig routes)
    {
        routes.post("/v1/statements", this::execute);
        routes.get("/v1/queries", this::queries);
        routes.get("/v1/queries/{id}", this::query);
        routes.get("/v1/queries/{id}/results", this::page);
        routes.delete("/v1/queries/{id}", this::cancel);
    }

    /** Closes results their clients stopped reading. */
    public void expire()
    {
        statements.expire();
    }

    /** Results held for HTTP clients, for tests. */
    public int openResults()
    {
        return statements.size();
    }

    private void execute(Context context)
    {
        StatementRequest request = StatementRequest.parse(context.body());
        Session session = engine.createSession(HttpAuthentication.user(context));
        request.catalog().ifPresent(session::setCatalog);
        request.schema().ifPresent(session::setSchema);
        request.properties().forEach(session::setProperty);
        String accept = context.header("Accept");
        if (accept != null && accept.contains(ARROW_STREAM)) {
            arrowStream(context, session.execute(request.sql()));
            return;
        }
        HttpStatement statement = new HttpStatement(session.user(), session.execute(request.sql()), request.pageSize(), statements.clock());
        String page;
        try {
            page = statement.page(1);
        }
        catch (RuntimeException e) {
            statement.close();
            throw e;
        }
        if (!statement.finished()) {
            statements.add(statement);
        }
        json(context, page);
    }

    private void page(Context context)
    {
        String id = queryId(context);
        String pageParameter = context.queryParam("page");
        int number;
        try {
            number = Integer.parseInt(requireNonNull(pageParameter, "page"));
        }
        catch (NullPointerException | NumberFormatException e) {
            throw HttpError.badRequest("Query parameter 'page' must be a page number (the nextUri of the previous page names it), not " + pageParameter);
        }
        HttpStatement statement = statements.get(id, HttpAuthentication.user(context))
                .orElseThrow(() -> HttpError.notFound("Query " + id + " has no result to read here: it is unknown, not yours, expired or read to its end"));
        try {
            json(context, statement.page(number));
        }
        catch (HttpError e) {
            throw e;
        }
        catch (RuntimeException e) {
            statements.remove(id);
            throw e;
        }
    }

    private void queries(Context context)
    {
        context.json(Map.of("queries", engine.queryStatuses(HttpAuthentication.user(context)).stream().map(StatementRoutes::status).toList()));
    }

    private void query(Context context)
    {
        String id = queryId(context);
        String user = HttpAuthentication.user(context);
        QueryStatus status = engine.queryStatuses(user).stream()
                .filter(query -> query.queryId().equals(id))
                .findFirst()
                .orElseThrow(() -> HttpError.notFound("Query " + id + " is unknown, forgotten or not yours"));
        context.json(status(status));
    }

    private void cancel(Context context)
    {
        String id = queryId(context);
        Session session = engine.createSession(HttpAuthentication.user(context));
        // the same checks and messages as in SQL: its owner or an administrator, a statement still running
        try (QueryResult result = session.execute("CALL system.kill_query('" + id + "')")) {
            while (result.nextBatch() != null) {
                // drain
            }
        }
        finally {
            statements.get(id, session.user()).ifPresent(statement -> statements.remove(id));
        }
        context.json(Map.of("id", id, "state", "CANCELLED"));
    }

    private static String queryId(Context context)
    {
        String id = context.pathParam("id");
        if (!QUERY_ID.matcher(id).matches()) {
            throw HttpError.badRequest("Not a query id: '" + io.ontul.engine.api.ErrorMessages.abbreviate(id, 120) + "' (ids look like 20260101_120000_00001_abcde)");
        }
        return id;
    }

    static Map<String, Object> status(QueryStatus status)
    {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", status.queryId());
        json.put("user", status.user());
        json.put("state", status.state());
        json.put("query", status.query());
        json.put("created", status.created().toString());
        json.put("elapsedMillis", status.elapsedMillis());
        json.put("rows", status.rows());
        json.put("bytes", status.bytes());
        json.put("peakMemoryBytes", status.peakMemoryBytes());
        json.put("spilledBytes", status.spilledBytes());
        json.put("spillFiles", status.spillFiles());
        json.put("error", status.error().orElse(null));
        return json;
    }

    private static void json(Context context, String body)
    {
        context.contentType("application/json").result(body);
    }

    /**
     * The whole result as one Arrow IPC stream: schema, batches, end-of-stream marker. The first
     * batch with rows is read before the status is sent, so a statement that fails at once gets its
     * error as JSON; one that fails later ends the stream without its end-of-stream marker, and the
     * connection is cut, so no client mistakes the rows so far for the whole result.
     */
    private void arrowStream(Context context, QueryResult result)
    {
        try (result) {
            // the first batch with rows (or the end): a statement that fails at once still gets its own status
            VectorSchemaRoot head = result.nextBatch();
            while (head != null && head.getRowCount() == 0) {
                head = result.nextBatch();
            }
            context.status(200).contentType(ARROW_STREAM).header("X-Ontul-Query-Id", result.queryId());
            OutputStream output = context.outputStream();
            WriteChannel channel = new WriteChannel(Channels.newChannel(output));
            MessageSerializer.serialize(channel, result.schema());
            for (VectorSchemaRoot batch = head; batch != null; batch = result.nextBatch()) {
                try (ArrowRecordBatch records = new VectorUnloader(batch).getRecordBatch()) {
                    MessageSerializer.serialize(channel, records);
                }
                // each batch goes out as it comes: the client reads while the query runs
                output.flush();
            }
            ArrowStreamWriter.writeEndOfStream(channel, IpcOption.DEFAULT);
            output.flush();
        }
        catch (IOException e) {
            // the client went away: closing the result stopped the query
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close()
    {
        statements.close();
    }
}
