package io.ontul.catalog.memory;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.VectorSchemaRootAppender;

/**
 * Copies batches buffer by buffer, and merges runs of small batches so that the batches of one
 * commit, and the batches a scan returns, have a useful size even when rows arrive a few at a
 * time.
 */
final class MemoryBatchCopier
        implements AutoCloseable
{
    /** Batches with fewer rows than this are merged with their neighbours. */
    static final int SMALL_BATCH_ROWS = 8192;
    /** Merging stops before a batch would exceed this many rows. */
    static final int TARGET_BATCH_ROWS = 65536;

    private final List<VectorSchemaRoot> finished = new ArrayList<>();
    private VectorSchemaRoot current;

    static boolean isSmall(int rowCount)
    {
        return rowCount < SMALL_BATCH_ROWS;
    }

    static boolean fitsInto(VectorSchemaRoot target, int rowCount)
    {
        return target.getRowCount() + rowCount <= TARGET_BATCH_ROWS;
    }

    /**
     * A copy of {@code source}, with {@code schema}'s field names, in buffers of exactly the
     * needed size allocated from {@code allocator}. The vectors of {@code source} must have the
     * types of {@code schema}, and it must have at least one row.
     */
    static VectorSchemaRoot copy(VectorSchemaRoot source, Schema schema, BufferAllocator allocator)
    {
        List<ArrowBuf> copies = new ArrayList<>();
        VectorSchemaRoot target = VectorSchemaRoot.create(schema, allocator);
        try (ArrowRecordBatch shared = new VectorUnloader(source).getRecordBatch()) {
            for (ArrowBuf buffer : shared.getBuffers()) {
                long length = buffer.readableBytes();
                ArrowBuf copy = allocator.buffer(length);
                copies.add(copy);
                copy.setBytes(0, buffer, buffer.readerIndex(), length);
                copy.writerIndex(length);
            }
            try (ArrowRecordBatch copied = new ArrowRecordBatch(shared.getLength(), shared.getNodes(), copies)) {
                new VectorLoader(target).load(copied);
            }
            return target;
        }
        catch (RuntimeException | Error e) {
            target.close();
            throw e;
        }
        finally {
            // the loaded vectors hold their own references
            copies.forEach(ArrowBuf::close);
        }
    }

    /**
     * Appends the rows of {@code source} to {@code target}, which must own its vectors and hold at
     * least one row (Arrow's appender cannot start from unallocated vectors).
     */
    static void append(VectorSchemaRoot target, VectorSchemaRoot source)
    {
        VectorSchemaRootAppender.append(false, target, source);
    }

    /** Adds a batch this copier now owns; it may be merged into a neighbour and closed. */
    void add(VectorSchemaRoot batch)
    {
        if (!isSmall(batch.getRowCount())) {
            finished.add(batch);
            return;
        }
        if (current == null) {
            current = batch;
            return;
        }
        if (!fitsInto(current, batch.getRowCount())) {
            finished.add(current);
            current = batch;
            return;
        }
        try {
            append(current, batch);
        }
        finally {
            batch.close();
        }
    }

    /** The merged batches; the caller owns them. */
    List<VectorSchemaRoot> finish()
    {
        if (current != null) {
            finished.add(current);
            current = null;
        }
        List<VectorSchemaRoot> result = List.copyOf(finished);
        finished.clear();
        return result;
    }

    /** Frees whatever {@link #finish()} has not handed out. */
    @Override
    public void close()
    {
        finished.forEach(VectorSchemaRoot::close);
        finished.clear();
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
