package io.ontul.catalog.iceberg.write;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.catalog.iceberg.IcebergErrors;
import io.ontul.catalog.iceberg.IcebergTableHandle;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.stream.StreamSink;

/**
 * The two-phase sink of a streaming job into an Iceberg table. Between barriers, rows go into
 * Parquet data files (the writers of {@link IcebergBatchSink}); {@link #prepareCommit} closes
 * them and returns their {@link DataFile} descriptions (Java-serialized, as Iceberg's own engines
 * ship them); {@link #commit} makes them ONE append whose snapshot summary holds
 * {@value #JOB_ID} and {@value #CHECKPOINT_ID}.
 * <p>
 * Idempotence: before appending, the current snapshot's ancestors are searched for the newest
 * snapshot of the same job; if its checkpoint id is at least N, checkpoint N is in already and
 * nothing is done. This relies on the job's last snapshot not being expired (nor the table rolled
 * back past it) before the job's next commit.
 */
final class IcebergStreamSink
        implements StreamSink
{
    public static final String JOB_ID = "ontul.job-id";
    public static final String CHECKPOINT_ID = "ontul.checkpoint-id";

    private static final Logger LOG = LoggerFactory.getLogger(IcebergStreamSink.class);

    private final IcebergTableHandle table;
    private final String jobId;
    private final long targetFileSize;
    private final BufferAllocator allocator;
    private final FileWriterFactory<Record> writerFactory;
    private final AtomicInteger writerIds = new AtomicInteger();
    private final String sinkId = UUID.randomUUID().toString();
    private IcebergWriterPool pool;

    IcebergStreamSink(IcebergTableHandle table, String jobId, long targetFileSize, BufferAllocator allocator)
    {
        this.table = requireNonNull(table, "table is null");
        this.jobId = requireNonNull(jobId, "jobId is null");
        this.targetFileSize = targetFileSize;
        this.allocator = requireNonNull(allocator, "allocator is null");
        if (table.timeTravel()) {
            throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Cannot write to a snapshot of a table: '%s'", table.qualifiedName());
        }
        this.writerFactory = new GenericFileWriterFactory.Builder(table.table())
                .dataFileFormat(FileFormat.PARQUET)
                .dataSchema(table.schema())
                .build();
    }

    @Override
    public void write(VectorSchemaRoot batch)
    {
        checkColumns(batch);
        if (batch.getRowCount() == 0) {
            return;
        }
        if (pool == null) {
            pool = new IcebergWriterPool(table.qualifiedName(), 1, this::newWriters);
        }
        try {
            pool.write(ArrowBatchCopier.copy(batch, allocator));
        }
        catch (OntulException e) {
            throw e;
        }
        catch (RuntimeException e) {
            throw IcebergErrors.table(table.qualifiedName(), "writing a data file failed", e);
        }
    }

    private IcebergFileWriters newWriters()
    {
        return IcebergFileWriters.open(table, writerFactory, writerIds.incrementAndGet(), 0, jobId + "-" + sinkId, targetFileSize);
    }

    private void checkColumns(VectorSchemaRoot batch)
    {
        IcebergFileWriters.checkColumns(table, batch);
    }

    @Override
    public byte[] prepareCommit(long checkpointId)
    {
        List<DataFile> files;
        try {
            files = pool == null ? List.of() : pool.finish();
        }
        catch (RuntimeException e) {
            abort();
            throw e instanceof OntulException ? e : IcebergErrors.table(table.qualifiedName(), "writing a data file failed", e);
        }
        pool = null;
        return DataFileList.serialize(files);
    }

    @Override
    public void commit(long checkpointId, List<byte[]> committables)
    {
        Table icebergTable = table.table();
        icebergTable.refresh();
        if (isCommitted(icebergTable, checkpointId)) {
            LOG.info("Checkpoint {} of job {} is already in table {}", checkpointId, jobId, table.qualifiedName());
            return;
        }
        List<DataFile> files = new ArrayList<>();
        for (byte[] committable : committables) {
            files.addAll(DataFileList.deserialize(committable, "the data files of a streaming checkpoint"));
        }
        if (files.isEmpty()) {
            return;
        }
        try {
            AppendFiles append = icebergTable.newAppend();
            files.forEach(append::appendFile);
            append.set(JOB_ID, jobId);
            append.set(CHECKPOINT_ID, String.valueOf(checkpointId));
            append.commit();
        }
        catch (RuntimeException e) {
            // files are kept: the commit is retried from the checkpoint, which still names them
            throw IcebergErrors.table(table.qualifiedName(), "the commit of checkpoint " + checkpointId + " of streaming job " + jobId + " failed", e);
        }
    }

    /**
     * A job commits its checkpoints in order, so the newest snapshot of the job among the current
     * snapshot's ancestors holds its greatest committed checkpoint: the walk stops there.
     */
    private boolean isCommitted(Table icebergTable, long checkpointId)
    {
        for (Snapshot snapshot : SnapshotUtil.currentAncestors(icebergTable)) {
            Map<String, String> summary = snapshot.summary();
            if (summary != null && jobId.equals(summary.get(JOB_ID))) {
                String committed = summary.get(CHECKPOINT_ID);
                return committed != null && Long.parseLong(committed) >= checkpointId;
            }
        }
        return false;
    }

    @Override
    public void abort()
    {
        if (pool == null) {
            return;
        }
        for (String location : pool.abandon()) {
            try {
                table.table().io().deleteFile(location);
            }
            catch (RuntimeException e) {
                LOG.warn("Could not delete data file {} of streaming job {} (table {}); it is an orphan file now", location, jobId, table.qualifiedName(), e);
            }
        }
        pool = null;
    }

    @Override
    public void close()
    {
        abort();
    }
}
