package io.ontul.engine.operator.write;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.spi.SinkWriter;

/**
 * A worker's share of a distributed INSERT or CREATE TABLE AS: appends every row of its input to
 * the connector's {@link SinkWriter}, then emits one row ({@link #SCHEMA}): how many rows it wrote
 * and what the writer finished, which the coordinator hands to its sink for the one commit. If
 * the input fails or the query is cancelled first, closing aborts the writer (its files are
 * deleted).
 */
public final class TableWriteOperator
        implements Operator
{
    /** The one row a writer emits. */
    public static final Schema SCHEMA = new Schema(List.of(
            new Field("rows", FieldType.notNullable(new ArrowType.Int(64, true)), null),
            new Field("written", FieldType.notNullable(ArrowType.Binary.INSTANCE), null)));

    private final OperatorContext context;
    private final Operator input;
    private final SinkWriter writer;
    private boolean done;
    private boolean finished;

    public TableWriteOperator(OperatorContext context, Operator input, SinkWriter writer)
    {
        this.context = requireNonNull(context, "context is null");
        this.input = requireNonNull(input, "input is null");
        this.writer = requireNonNull(writer, "writer is null");
    }

    @Override
    public VectorSchemaRoot next()
    {
        if (done) {
            return null;
        }
        long rows = 0;
        while (true) {
            try (VectorSchemaRoot batch = input.next()) {
                if (batch == null) {
                    break;
                }
                writer.append(batch);
                rows += batch.getRowCount();
            }
        }
        context.checkCancelled();
        byte[] written = writer.finish();
        finished = true;
        done = true;
        VectorSchemaRoot result = VectorSchemaRoot.create(SCHEMA, context.allocator());
        try {
            ((BigIntVector) result.getVector(0)).setSafe(0, rows);
            ((VarBinaryVector) result.getVector(1)).setSafe(0, written);
            result.setRowCount(1);
            return result;
        }
        catch (RuntimeException e) {
            result.close();
            throw e;
        }
    }

    @Override
    public void close()
    {
        try {
            input.close();
        }
        finally {
            if (!finished) {
                finished = true;
                writer.abort();
            }
        }
    }
}
