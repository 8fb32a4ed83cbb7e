package io.ontul.server.flight;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.vector.types.pojo.Schema;

import com.google.protobuf.ByteString;

import io.ontul.engine.QueryResult;
import io.ontul.engine.Session;

/**
 * The prepared statements of all connections, by handle. A prepared query keeps the result
 * that was started to learn its schema, so the usual create, execute once, close sequence of
 * JDBC drivers plans and runs the query only once; later executions start it again.
 */
public final class PreparedStatements
        implements AutoCloseable
{
    private final Map<ByteString, PreparedStatement> statements = new ConcurrentHashMap<>();

    public static final class PreparedStatement
    {
        private final Session session;
        private final String sql;
        private final Schema schema;
        private final AtomicReference<QueryResult> started;

        PreparedStatement(Session session, String sql, Schema schema, QueryResult started)
        {
            this.session = session;
            this.sql = sql;
            this.schema = schema;
            this.started = new AtomicReference<>(started);
        }

        public Session session()
        {
            return session;
        }

        public String sql()
        {
            return sql;
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

        /** The result started at preparation if nobody took it yet, else a new execution. */
        public QueryResult execute()
        {
            QueryResult result = started.getAndSet(null);
            return result != null ? result : session.execute(sql);
        }

        void close()
        {
            QueryResult result = started.getAndSet(null);
            if (result != null) {
                PendingResults.closeQuietly(result);
            }
        }
    }

    public ByteString add(Session session, String sql, Schema schema, QueryResult started)
    {
        ByteString handle = PendingResults.newHandle();
        statements.put(handle, new PreparedStatement(session, sql, schema, started));
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

    public void remove(Session session, ByteString handle)
    {
        PreparedStatement statement = get(session, handle);
        if (statements.remove(handle, statement)) {
            statement.close();
        }
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
