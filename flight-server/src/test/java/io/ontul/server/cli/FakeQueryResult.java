package io.ontul.server.cli;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.api.QueryResult;

/** Hands out prepared batches; optionally fails after them. Closes the batches it owns. */
final class FakeQueryResult
        implements QueryResult
{
    private final Schema schema;
    private final boolean update;
    private final List<VectorSchemaRoot> batches;
    private final Deque<VectorSchemaRoot> remaining;
    private final RuntimeException failureAtEnd;
    private boolean closed;

    FakeQueryResult(Schema schema, boolean update, List<VectorSchemaRoot> batches, RuntimeException failureAtEnd)
    {
        this.schema = requireNonNull(schema, "schema is null");
        this.update = update;
        this.batches = List.copyOf(batches);
        this.remaining = new ArrayDeque<>(batches);
        this.failureAtEnd = failureAtEnd;
    }

    static FakeQueryResult of(VectorSchemaRoot... batches)
    {
        return new FakeQueryResult(batches[0].getSchema(), false, List.of(batches), null);
    }

    static FakeQueryResult update(VectorSchemaRoot batch)
    {
        return new FakeQueryResult(batch.getSchema(), true, List.of(batch), null);
    }

    @Override
    public String queryId()
    {
        return "q000001";
    }

    @Override
    public Schema schema()
    {
        return schema;
    }

    @Override
    public boolean isUpdate()
    {
        return update;
    }

    @Override
    public VectorSchemaRoot nextBatch()
    {
        if (closed) {
            throw new IllegalStateException("result is closed");
        }
        if (remaining.isEmpty() && failureAtEnd != null) {
            throw failureAtEnd;
        }
        return remaining.poll();
    }

    boolean isClosed()
    {
        return closed;
    }

    @Override
    public void close()
    {
        closed = true;
        batches.forEach(VectorSchemaRoot::close);
    }
}
