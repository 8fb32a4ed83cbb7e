package io.ontul.engine.api;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A user's connection to the engine: session properties (SET SESSION), the default catalog and
 * schema. Statements of one session run one at a time; use several sessions for concurrency.
 */
public final class Session
        implements io.ontul.engine.execution.SessionSettings
{
    private final Engine engine;
    private final String user;
    private final Map<String, String> properties = new ConcurrentHashMap<>();
    private volatile String catalog;
    private volatile String schema;

    Session(Engine engine, String user)
    {
        this.engine = requireNonNull(engine, "engine is null");
        this.user = requireNonNull(user, "user is null");
    }

    /**
     * Runs one statement. Queries return a streaming result; other statements run to
     * completion and return their row count.
     *
     * @throws io.ontul.spi.OntulException for every failure, with a categorised code
     */
    public QueryResult execute(String sql)
    {
        requireNonNull(sql, "sql is null");
        return new io.ontul.engine.execution.StatementExecutor(this, engine.nextQueryId(), sql).execute();
    }

    /**
     * Runs a statement with {@code ?} markers bound to {@code parameters} (in order; see
     * {@code io.ontul.engine.execution.Parameters} for the Java types accepted; null is SQL NULL).
     */
    public QueryResult execute(String sql, java.util.List<?> parameters)
    {
        requireNonNull(sql, "sql is null");
        requireNonNull(parameters, "parameters is null");
        return new io.ontul.engine.execution.StatementExecutor(this, engine.nextQueryId(), sql, parameters).execute();
    }

    /**
     * As {@link #execute(String, java.util.List)}, or as {@link #execute(String)} when
     * {@code parameters} is null, telling {@code queryId} the statement's id before it runs, so that the
     * caller can stop it from another thread ({@code engine.queries().cancelByClient(id)}) while
     * {@code execute} itself still runs it: an INSERT or CREATE TABLE AS writes its rows before
     * it returns.
     */
    public QueryResult execute(String sql, java.util.List<?> parameters, java.util.function.Consumer<String> queryId)
    {
        requireNonNull(sql, "sql is null");
        String id = engine.nextQueryId();
        queryId.accept(id);
        return new io.ontul.engine.execution.StatementExecutor(this, id, sql, parameters).execute();
    }

    /**
     * Parses a statement once for many executions, each with its own values for the {@code ?}
     * markers; see {@link PreparedStatement}.
     *
     * @throws io.ontul.spi.OntulException when it does not parse, or (queries and INSERT) does not validate
     */
    public PreparedStatement prepare(String sql)
    {
        requireNonNull(sql, "sql is null");
        return new PreparedStatement(this, sql, new io.ontul.engine.execution.StatementExecutor(this, engine.nextQueryId(), sql).prepare());
    }

    /** The catalogs, schemas and tables this session sees, for listings. */
    public CatalogBrowser catalogs()
    {
        return new CatalogBrowser(engine.catalogs(), engine.accessControl().of(user), engine.accessControl().grants());
    }

    /**
     * Sets a session property, as SET SESSION does: checks its name and value, and that a user
     * who is not an administrator does not raise a server limit.
     *
     * @throws io.ontul.spi.OntulException INVALID_ARGUMENT naming the property or value, PERMISSION_DENIED for a raise
     */
    public void setProperty(String name, String value)
    {
        requireNonNull(value, "value is null");
        properties.put(io.ontul.engine.execution.SessionProperties.validate(name, value, this), value);
    }

    /** Unsets a session property, as RESET SESSION does: its server default applies again. */
    public void resetProperty(String name)
    {
        properties.remove(io.ontul.engine.execution.SessionProperties.validate(name, null));
    }

    /** Whether the engine has a session property of this name (in any case). */
    public static boolean isProperty(String name)
    {
        return io.ontul.engine.execution.SessionProperties.isKnown(name);
    }

    public Engine engine()
    {
        return engine;
    }

    public String user()
    {
        return user;
    }

    @Override
    public Map<String, String> properties()
    {
        return properties;
    }

    public String catalog()
    {
        return catalog;
    }

    public String schema()
    {
        return schema;
    }

    public void setCatalog(String catalog)
    {
        this.catalog = catalog;
    }

    public void setSchema(String schema)
    {
        this.schema = schema;
    }
}
