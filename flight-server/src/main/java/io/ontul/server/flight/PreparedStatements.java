package io.ontul.server.flight;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.vector.types.pojo.Schema;

import com.google.protobuf.ByteString;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;

/**
 * The prepared statements of all connections, by handle: the engine's {@link
 * io.ontul.engine.api.PreparedStatement}, parsed once, with what the client bound. A prepared
 * query without parameters keeps the result that was started to learn its schema, so the usual
 * create, execute once, close sequence of JDBC drivers plans and runs the query only once; later
 * executions start it again. Statements with {@code ?} markers run with the values the client
 * bound last; a query bound to several parameter rows returns the concatenated results of one
 * execution per row.
 */
public final class PreparedStatements
        implements AutoCloseable
{
    private final Map<ByteString, PreparedStatement> statements = new ConcurrentHashMap<>();

    public static final class PreparedStatement
    {
        private final io.ontul.engine.api.PreparedStatement statement;
        private final Schema schema;
        private final AtomicReference<QueryResult> started;
        private volatile List<List<Object>> parameterRows = List.of();

        PreparedStatement(io.ontul.engine.api.PreparedStatement statement, Schema schema, QueryResult started)
        {
            this.statement = statement;
            this.schema = schema;
            this.started = new AtomicReference<>(started);
        }

        /** The types of the {@code ?} markers; an empty schema when there are none. */
        public Schema parameterSchema()
        {
            return statement.parameterSchema();
        }

        /**
         * Binds the values of the next executions, one list per row of the client's parameter
         * batch. The result started at preparation ran without them and is dropped.
         */
        public void bind(List<List<Object>> rows)
        {
            parameterRows = List.copyOf(rows);
            close();
        }

        /** The bound rows; empty when nothing was bound. */
        public List<List<Object>> parameterRows()
        {
            return parameterRows;
        }

        public Session session()
        {
            return statement.session();
        }

        public String sql()
        {
            return statement.sql();
        }

        /** The result schema of a query; null for statements that change data. */
        public Schema schema()
        {
            return schema;
        }

        public boolean isQuery()
        {
            return schema != null;
        }

        /**
         * The result started at preparation if nobody took it yet, else a new execution with the
         * bound values; with several bound rows, one execution per row, results concatenated.
         */
        public QueryResult execute()
        {
            QueryResult result = started.getAndSet(null);
            if (result != null) {
                return result;
            }
            List<List<Object>> rows = parameterRows;
            if (rows.size() > 1) {
                return new ConcatenatedResult(rows, this::execute);
            }
            return execute(rows.isEmpty() ? List.of() : rows.get(0));
        }

        /** A new execution with the given values for the {@code ?} markers. */
        public QueryResult execute(List<Object> parameters)
        {
            return execute(parameters, id -> { });
        }

        /** Runs the statement with one row of values, telling {@code queryId} its id first (to cancel it). */
        public QueryResult execute(List<Object> parameters, java.util.function.Consumer<String> queryId)
        {
            return statement.execute(parameters, queryId);
        }

        void close()
        {
            QueryResult result = started.getAndSet(null);
            if (result != null) {
                PendingResults.closeQuietly(result);
            }
        }
    }

    /** @param schema the result's columns, null for statements that change data; @param started the result started to learn them, or null */
    public ByteString add(io.ontul.engine.api.PreparedStatement statement, Schema schema, QueryResult started)
    {
        ByteString handle = PendingResults.newHandle();
        statements.put(handle, new PreparedStatement(statement, schema, started));
        return handle;
    }

    public PreparedStatement get(Session session, ByteString handle)
    {
        PreparedStatement statement = statements.get(handle);
        if (statement == null || statement.session() != session) {
            throw CallStatus.NOT_FOUND.withDescription("Unknown prepared statement (closed or from another connection)").toRuntimeException();
        }
        return statement;
    }

    /** Whether the session has this prepared statement open (false once it is closed). */
    public boolean contains(Session session, ByteString handle)
    {
        PreparedStatement statement = statements.get(handle);
        return statement != null && statement.session() == session;
    }

    public void remove(Session session, ByteString handle)
    {
        PreparedStatement statement = get(session, handle);
        if (statements.remove(handle, statement)) {
            statement.close();
        }
    }

    /** Closes every prepared statement of a session. */
    public void closeAll(Session session)
    {
        statements.forEach((handle, statement) -> {
            if (statement.session() == session && statements.remove(handle, statement)) {
                statement.close();
            }
        });
    }

    public int size()
    {
        return statements.size();
    }

    @Override
    public void close()
    {
        statements.keySet().forEach(handle -> {
            PreparedStatement statement = statements.remove(handle);
            if (statement != null) {
                statement.close();
            }
        });
    }
}
