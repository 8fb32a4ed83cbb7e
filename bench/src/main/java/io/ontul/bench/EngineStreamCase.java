package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;

/** A query through the engine in this JVM, without Flight: the engine's own share of a read. */
public final class EngineStreamCase
        implements StreamCase
{
    private final String name;
    private final Session session;
    private final String sql;

    public EngineStreamCase(String name, Session session, String sql)
    {
        this.name = requireNonNull(name, "name is null");
        this.session = requireNonNull(session, "session is null");
        this.sql = requireNonNull(sql, "sql is null");
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public StreamRun read()
    {
        StreamTally tally = StreamTally.start();
        try (QueryResult result = session.execute(sql)) {
            VectorSchemaRoot batch;
            while ((batch = result.nextBatch()) != null) {
                tally.batch(batch);
            }
        }
        return tally.finish();
    }
}
