package io.ontul.engine.api;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.function.Consumer;

import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.execution.StatementExecutor;

/**
 * A statement of a session, parsed once for many executions ({@link Session#prepare}). Queries
 * and INSERTs are validated once as they are prepared, which types their {@code ?} markers
 * ({@link #parameterSchema}); each execution binds its values as typed literals into a copy of
 * the parsed statement and plans that once, so a filter on a bound value is planned like one
 * written in the SQL (pushed into scans, folded). Other statements take no parameters and parse
 * their text again each time they run.
 * <p>
 * Thread-safe; executions run like {@link Session#execute} statements of its session.
 */
public final class PreparedStatement
{
    private final Session session;
    private final String sql;
    private final StatementExecutor.Preparation preparation;
    private volatile Schema resultSchema;

    PreparedStatement(Session session, String sql, StatementExecutor.Preparation preparation)
    {
        this.session = requireNonNull(session, "session is null");
        this.sql = requireNonNull(sql, "sql is null");
        this.preparation = requireNonNull(preparation, "preparation is null");
    }

    public String sql()
    {
        return sql;
    }

    public Session session()
    {
        return session;
    }

    /** Whether it returns rows (queries, SHOW, DESCRIBE, EXPLAIN) rather than an update count. */
    public boolean returnsRows()
    {
        return preparation.returnsRows();
    }

    /** The types of the {@code ?} markers, fields {@code parameter_1}, ...; empty when it has none. */
    public Schema parameterSchema()
    {
        return preparation.parameterSchema();
    }

    /**
     * The columns it returns; an empty schema for statements that return an update count. A
     * query is planned for them (with NULLs of the markers' types) but not run; SHOW, DESCRIBE and
     * EXPLAIN run, as they take no parameters and read only metadata.
     */
    public Schema resultSchema()
    {
        Schema schema = resultSchema;
        if (schema == null) {
            if (!returnsRows()) {
                schema = new Schema(List.of());
            }
            else if (preparation.statement() != null) {
                schema = new StatementExecutor(session, session.engine().nextQueryId(), sql).resultSchema(preparation);
            }
            else {
                try (QueryResult result = execute(List.of())) {
                    schema = result.schema();
                }
            }
            resultSchema = schema;
        }
        return schema;
    }

    /**
     * Runs it with {@code parameters} for the markers, in order (see {@link Session#execute(String, List)}
     * for the Java types accepted); an empty list when it has none.
     */
    public QueryResult execute(List<?> parameters)
    {
        return execute(parameters, id -> { });
    }

    /** As {@link #execute(List)}, telling {@code queryId} the statement's id before it runs (to cancel it). */
    public QueryResult execute(List<?> parameters, Consumer<String> queryId)
    {
        requireNonNull(parameters, "parameters is null");
        String id = session.engine().nextQueryId();
        queryId.accept(id);
        boolean none = parameters.isEmpty() && preparation.parameterSchema().getFields().isEmpty();
        return new StatementExecutor(session, id, sql, preparation.statement(), none ? null : parameters).execute();
    }
}
