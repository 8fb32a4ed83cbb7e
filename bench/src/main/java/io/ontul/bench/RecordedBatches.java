package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.api.QueryResult;

/**
 * A query result read once and held in memory as Arrow record batches, so that a plain Flight
 * server can send exactly the batches the engine produced. Closing releases the batches.
 */
public final class RecordedBatches
        implements AutoCloseable
{
    private final Schema schema;
    private final List<ArrowRecordBatch> batches;
    private final long rows;

    private RecordedBatches(Schema schema, List<ArrowRecordBatch> batches, long rows)
    {
        this.schema = requireNonNull(schema, "schema is null");
        this.batches = List.copyOf(requireNonNull(batches, "batches is null"));
        this.rows = rows;
    }

    /**
     * Reads the whole result, moving each batch's buffers into {@code allocator} (which must
     * share the engine's root allocator); does not close the result.
     */
    public static RecordedBatches record(QueryResult result, BufferAllocator allocator)
    {
        List<ArrowRecordBatch> batches = new ArrayList<>();
        long rows = 0;
        try (VectorSchemaRoot holder = VectorSchemaRoot.create(result.schema(), allocator)) {
            VectorUnloader unloader = new VectorUnloader(holder);
            VectorSchemaRoot batch;
            while ((batch = result.nextBatch()) != null) {
                List<FieldVector> vectors = batch.getFieldVectors();
                for (int column = 0; column < vectors.size(); column++) {
                    vectors.get(column).makeTransferPair(holder.getVector(column)).transfer();
                }
                holder.setRowCount(batch.getRowCount());
                // the record batch keeps its own reference to the buffers the next transfer replaces
                batches.add(unloader.getRecordBatch());
                rows += batch.getRowCount();
            }
        }
        catch (RuntimeException e) {
            batches.forEach(ArrowRecordBatch::close);
            throw e;
        }
        return new RecordedBatches(result.schema(), batches, rows);
    }

    public Schema schema()
    {
        return schema;
    }

    public List<ArrowRecordBatch> batches()
    {
        return batches;
    }

    public long rows()
    {
        return rows;
    }

    /** The Arrow buffer bytes of all batches. */
    public long bytes()
    {
        return batches.stream().mapToLong(ArrowRecordBatch::computeBodyLength).sum();
    }

    @Override
    public void close()
    {
        batches.forEach(ArrowRecordBatch::close);
    }
}
