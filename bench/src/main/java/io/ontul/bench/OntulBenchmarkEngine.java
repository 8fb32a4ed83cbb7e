package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.testing.ResultRows;

/** Ontul embedded in this JVM. */
public final class OntulBenchmarkEngine
        implements BenchmarkEngine
{
    private final Engine engine;
    private final Session session;
    private final AtomicReference<QueryResult> running = new AtomicReference<>();

    public OntulBenchmarkEngine(Engine engine)
    {
        this.engine = requireNonNull(engine, "engine is null");
        this.session = engine.createSession("bench");
        // DuckDB runs without a memory cap in this JVM; give Ontul's queries room too
        session.execute("SET SESSION query_max_memory = '8GB'").close();
    }

    @Override
    public String name()
    {
        return "Ontul";
    }

    /** Runs a statement that changes data and returns the row count it reports. */
    public long update(String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            long rows = 0;
            VectorSchemaRoot batch;
            while ((batch = result.nextBatch()) != null) {
                if (batch.getRowCount() > 0 && !batch.getFieldVectors().isEmpty()) {
                    Object value = batch.getFieldVectors().get(0).getObject(0);
                    rows += value instanceof Number ? ((Number) value).longValue() : 0;
                }
            }
            return rows;
        }
    }

    @Override
    public long countRows(String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            running.set(result);
            long rows = 0;
            VectorSchemaRoot batch;
            while ((batch = result.nextBatch()) != null) {
                rows += batch.getRowCount();
            }
            return rows;
        }
        finally {
            running.set(null);
        }
    }

    @Override
    public QueryRows rows(String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            List<String> names = result.schema().getFields().stream().map(Field::getName).collect(Collectors.toList());
            return new QueryRows(names, ResultRows.drain(result));
        }
    }

    /** Closes the running result, which the QueryResult protocol defines as cancelling it. */
    @Override
    public void cancel()
    {
        QueryResult result = running.getAndSet(null);
        if (result != null) {
            result.close();
        }
    }

    @Override
    public void close()
    {
        engine.close();
    }
}
