package io.ontul.server.cli;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;

/** An in-process engine with one session; closing it stops the engine. */
public final class EngineStatementExecutor
        implements StatementExecutor
{
    static final String USER = "admin";

    private final Engine engine;
    private final Session session;

    private EngineStatementExecutor(Engine engine)
    {
        this.engine = requireNonNull(engine, "engine is null");
        this.session = engine.createSession(USER);
    }

    public static EngineStatementExecutor open(Path configurationDirectory)
    {
        return new EngineStatementExecutor(Engine.create(EngineConfig.load(configurationDirectory)));
    }

    @Override
    public QueryResult execute(String sql)
    {
        return session.execute(sql);
    }

    @Override
    public void close()
    {
        engine.close();
    }
}
