package io.ontul.catalog.iceberg.write;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.FileWriterFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.catalog.iceberg.IcebergErrors;
import io.ontul.catalog.iceberg.IcebergTableHandle;
import io.ontul.spi.OntulException;
import io.ontul.spi.SinkWriter;

/**
 * The data files one process writes for one statement: appended batches are copied and encoded
 * into Parquet by an {@link IcebergWriterPool}, whichever threads append. {@link #finishFiles}
 * closes them and describes them; {@link #abort} deletes them. Nothing commits here: the
 * {@link IcebergBatchSink} of the statement does, in this process or on the coordinator of a
 * cluster (where {@link #finish} sends the files).
 */
final class IcebergDataWriter
        implements SinkWriter
{
    private static final Logger LOG = LoggerFactory.getLogger(IcebergDataWriter.class);

    private enum State
    {
        OPEN, FINISHED, ABORTED
    }

    private final IcebergTableHandle table;
    private final String operationId;
    private final int taskId;
    private final long targetFileSize;
    private final BufferAllocator parentAllocator;
    private final int threads;
    private final FileWriterFactory<Record> writerFactory;
    private final AtomicInteger writerIds = new AtomicInteger();
    private BufferAllocator allocator;
    private IcebergWriterPool pool;
    private volatile State state = State.OPEN;

    /**
     * @param taskId this process's number among the writers of the operation (in the files' names)
     * @param allocator where copies of the appended batches wait to be written (a child is made and closed at the end)
     * @param threads how many threads encode Parquet
     */
    IcebergDataWriter(IcebergTableHandle table, String operationId, int taskId, long targetFileSize, BufferAllocator allocator, int threads)
    {
        this.table = requireNonNull(table, "table is null");
        this.operationId = requireNonNull(operationId, "operationId is null");
        this.taskId = taskId;
        this.targetFileSize = targetFileSize;
        this.parentAllocator = requireNonNull(allocator, "allocator is null");
        this.threads = Math.max(1, threads);
        this.writerFactory = new GenericFileWriterFactory.Builder(table.table())
                .dataFileFormat(FileFormat.PARQUET)
                .dataSchema(table.schema())
                .build();
    }

    @Override
    public void append(VectorSchemaRoot batch)
    {
        if (state != State.OPEN) {
            throw OntulException.internal("append to the writer of table '" + table.qualifiedName() + "' after " + state.name().toLowerCase(), null);
        }
        IcebergFileWriters.checkColumns(table, batch);
        if (batch.getRowCount() == 0) {
            return;
        }
        IcebergWriterPool writers = pool();
        try {
            writers.write(ArrowBatchCopier.copy(batch, allocator));
        }
        catch (OntulException e) {
            throw e;
        }
        catch (RuntimeException e) {
            throw IcebergErrors.table(table.qualifiedName(), "writing a data file failed", e);
        }
    }

    private synchronized IcebergWriterPool pool()
    {
        if (pool == null) {
            allocator = parentAllocator.newChildAllocator("iceberg-writer-" + table.qualifiedName() + "-" + operationId + "-" + taskId, 0, Long.MAX_VALUE);
            pool = new IcebergWriterPool(table.qualifiedName(), threads, () -> IcebergFileWriters.open(table, writerFactory, writerIds.incrementAndGet(), taskId, operationId, targetFileSize));
        }
        return pool;
    }

    /** Closes every file; on failure deletes them all and throws. */
    synchronized List<DataFile> finishFiles()
    {
        if (state != State.OPEN) {
            throw OntulException.internal("finish of the writer of table '" + table.qualifiedName() + "' after " + state.name().toLowerCase(), null);
        }
        try {
            List<DataFile> files = pool == null ? List.of() : pool.finish();
            state = State.FINISHED;
            return files;
        }
        catch (RuntimeException e) {
            abort();
            throw e instanceof OntulException ? e : IcebergErrors.table(table.qualifiedName(), "writing a data file failed", e);
        }
        finally {
            closeAllocator();
        }
    }

    @Override
    public byte[] finish()
    {
        return DataFileList.serialize(finishFiles());
    }

    @Override
    public synchronized void abort()
    {
        if (state == State.ABORTED) {
            return;
        }
        State was = state;
        state = State.ABORTED;
        if (was == State.OPEN && pool != null) {
            delete(table, pool.abandon());
        }
        closeAllocator();
    }

    private void closeAllocator()
    {
        if (allocator != null) {
            allocator.close();
            allocator = null;
        }
    }

    /** Deletes data files of a write that will not commit; a file that cannot be deleted is logged as an orphan. */
    static void delete(IcebergTableHandle table, List<String> locations)
    {
        for (String location : locations) {
            try {
                table.table().io().deleteFile(location);
            }
            catch (RuntimeException e) {
                LOG.warn("Could not delete data file {} of the failed write to table '{}'; it is an orphan file now", location, table.qualifiedName(), e);
            }
        }
    }
}
