package io.ontul.engine.query;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.api.QueryResult;

/**
 * A streaming result that keeps its statement's registry entry up to date: counts the rows and
 * bytes handed to the client, and ends the statement when the last batch has been read, when
 * reading fails, or when the client closes the result. A result closed before its end is
 * FINISHED (the client took what it wanted) unless the client cancelled it first.
 */
public final class TrackedQueryResult
        implements QueryResult
{
    private final TrackedQuery query;
    private final QueryResult result;
    private volatile boolean cancelRequested;

    public TrackedQueryResult(TrackedQuery query, QueryResult result)
    {
        this.query = requireNonNull(query, "query is null");
        this.result = requireNonNull(result, "result is null");
    }

    @Override
    public String queryId()
    {
        return result.queryId();
    }

    @Override
    public Schema schema()
    {
        return result.schema();
    }

    @Override
    public long exchangedBytes()
    {
        return result.exchangedBytes();
    }

    @Override
    public boolean isUpdate()
    {
        return result.isUpdate();
    }

    @Override
    public VectorSchemaRoot nextBatch()
    {
        VectorSchemaRoot batch;
        try {
            batch = result.nextBatch();
        }
        catch (RuntimeException e) {
            throw query.fail(e);
        }
        if (batch == null) {
            query.finish();
            return null;
        }
        query.recordOutput(batch.getRowCount(), bufferBytes(batch));
        return batch;
    }

    private static long bufferBytes(VectorSchemaRoot batch)
    {
        long bytes = 0;
        for (FieldVector vector : batch.getFieldVectors()) {
            bytes += vector.getBufferSize();
        }
        return bytes;
    }

    @Override
    public void cancel()
    {
        cancelRequested = true;
        result.cancel();
    }

    @Override
    public void close()
    {
        try {
            result.close();
        }
        finally {
            if (cancelRequested) {
                query.cancelledByClient();
            }
            else {
                query.finish();
            }
        }
    }
}
