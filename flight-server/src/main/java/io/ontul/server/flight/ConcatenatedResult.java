package io.ontul.server.flight;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.function.Function;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.api.QueryResult;

/**
 * The result of a prepared query bound to several parameter rows: the results of one execution
 * per row, one after the other, as the Flight SQL spec asks. The first execution starts at once
 * (its schema is the result's); each following one starts when the previous one is exhausted,
 * so only one runs at a time.
 */
final class ConcatenatedResult
        implements QueryResult
{
    private final List<List<Object>> rows;
    private final Function<List<Object>, QueryResult> execution;
    private final Schema schema;
    private int next;
    private volatile QueryResult current;
    private volatile boolean cancelled;

    ConcatenatedResult(List<List<Object>> rows, Function<List<Object>, QueryResult> execution)
    {
        this.rows = List.copyOf(requireNonNull(rows, "rows is null"));
        this.execution = requireNonNull(execution, "execution is null");
        if (this.rows.isEmpty()) {
            throw new IllegalArgumentException("no parameter rows");
        }
        this.current = execution.apply(this.rows.get(0));
        this.next = 1;
        this.schema = current.schema();
    }

    @Override
    public String queryId()
    {
        return current.queryId();
    }

    @Override
    public Schema schema()
    {
        return schema;
    }

    @Override
    public boolean isUpdate()
    {
        return false;
    }

    @Override
    public VectorSchemaRoot nextBatch()
    {
        while (true) {
            VectorSchemaRoot batch = current.nextBatch();
            if (batch != null || next == rows.size()) {
                return batch;
            }
            QueryResult finished = current;
            finished.close();
            QueryResult started = execution.apply(rows.get(next++));
            current = started;
            if (cancelled) {
                // a cancel that raced with the switch reached the closed result only
                started.cancel();
            }
        }
    }

    @Override
    public void cancel()
    {
        cancelled = true;
        current.cancel();
    }

    @Override
    public void close()
    {
        current.close();
    }
}
