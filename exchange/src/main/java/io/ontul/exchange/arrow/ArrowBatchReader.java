package io.ontul.exchange.arrow;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.ReadableByteChannel;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reads what an {@link ArrowBatchWriter} wrote. Each batch {@link #next} returns is a new
 * {@link VectorSchemaRoot} allocated from the given allocator and owned by the caller (the
 * reader's own root is reused for loading, so its buffers are transferred out). Closing the
 * reader closes the underlying stream. Not thread-safe.
 */
public final class ArrowBatchReader
        implements BatchStreamReader
{
    private final BufferAllocator allocator;
    private final ArrowStreamReader reader;

    public ArrowBatchReader(InputStream in, BufferAllocator allocator)
    {
        this.allocator = requireNonNull(allocator, "allocator is null");
        requireNonNull(in, "in is null");
        // an exchange stream fills the batches' buffers as they are; any other stream through a copying adapter
        this.reader = in instanceof ReadableByteChannel direct ? new ArrowStreamReader(direct, allocator) : new ArrowStreamReader(in, allocator);
    }

    public Schema schema()
            throws IOException
    {
        return reader.getVectorSchemaRoot().getSchema();
    }

    @Override
    public VectorSchemaRoot next()
            throws IOException
    {
        if (!reader.loadNextBatch()) {
            return null;
        }
        VectorSchemaRoot loaded = reader.getVectorSchemaRoot();
        List<FieldVector> vectors = new ArrayList<>(loaded.getFieldVectors().size());
        try {
            for (FieldVector vector : loaded.getFieldVectors()) {
                var transfer = vector.getTransferPair(allocator);
                transfer.transfer();
                vectors.add((FieldVector) transfer.getTo());
            }
        }
        catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new VectorSchemaRoot(loaded.getSchema().getFields(), vectors, loaded.getRowCount());
    }

    @Override
    public void close()
            throws IOException
    {
        reader.close();
    }
}
