package io.ontul.engine.execution;

import java.util.List;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.query.QueryContext;
import io.ontul.spi.OntulException;

/**
 * A running query's result: pulls batches from the root operator as the client asks for them,
 * so nothing is materialised beyond what operators must hold. Relabels batches with the
 * statement's column names. Closing early cancels the query; the query's memory is released
 * when the result closes.
 */
public final class StreamingQueryResult
        implements QueryResult
{
    private final QueryContext context;
    private final Operator root;
    private final Schema schema;
    private final Runnable onFinish;
    private VectorSchemaRoot current;
    private boolean closed;

    public StreamingQueryResult(QueryContext context, Operator root, Schema schema, Runnable onFinish)
    {
        this.context = context;
        this.root = root;
        this.schema = schema;
        this.onFinish = onFinish;
    }

    @Override
    public String queryId()
    {
        return context.queryId();
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
        closeCurrent();
        if (closed) {
            return null;
        }
        VectorSchemaRoot batch;
        try {
            // operators may hold batches made before a cancel: none reaches the client after it
            context.checkCancelled();
            batch = root.next();
        }
        catch (RuntimeException | Error e) {
            // a killed or timed-out query may fail in other ways while it stops; its reason is what the user needs
            RuntimeException translated = context.cancellation()
                    .<RuntimeException>map(reason -> new OntulException(reason.code(), reason.getMessage()))
                    .orElseGet(() -> Errors.translate(e, context));
            closeQuietly();
            throw translated;
        }
        if (batch == null) {
            close();
            return null;
        }
        List<Field> fields = schema.getFields();
        current = new VectorSchemaRoot(fields, batch.getFieldVectors(), batch.getRowCount());
        return current;
    }

    private void closeCurrent()
    {
        if (current != null) {
            current.close();
            current = null;
        }
    }

    private void closeQuietly()
    {
        try {
            close();
        }
        catch (RuntimeException ignored) {
            // the query already failed; its error is what the user needs
        }
    }

    @Override
    public void cancel()
    {
        context.cancel();
    }

    @Override
    public long exchangedBytes()
    {
        return context.exchangedBytes();
    }

    @Override
    public void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        closeCurrent();
        context.cancel();
        try {
            root.close();
        }
        finally {
            try {
                context.close();
            }
            finally {
                onFinish.run();
            }
        }
    }
}
