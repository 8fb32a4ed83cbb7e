package io.ontul.catalog.iceberg.write;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expressions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.catalog.iceberg.IcebergErrors;
import io.ontul.catalog.iceberg.IcebergLeftovers;
import io.ontul.catalog.iceberg.IcebergTableHandle;
import io.ontul.spi.BatchSink;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Writes the rows of one statement into Parquet data files (with the column metrics Iceberg's
 * writers collect) and commits them as ONE Iceberg append, so a statement adds exactly one
 * snapshot. {@code append} hands the batches to an {@link IcebergDataWriter}, whose threads encode
 * Parquet in parallel whichever threads append.
 * <p>
 * In a cluster the workers may write the rows instead: each opens an {@link IcebergDataWriter}
 * from the {@link #remoteWriterHandle()} ({@link IcebergRemoteWrite}) and sends the files it
 * finished, which {@link #addRemoteWrite} collects; the commit appends the files of every writer
 * at once.
 * <p>
 * For CREATE TABLE AS the sink writes into a table that exists only in its create-table
 * transaction: the append and the table's creation commit together, so an abort, a failure or a
 * crash before the commit leaves no table.
 * <p>
 * Commit conflicts with concurrent writers are retried by Iceberg ({@code commit.retry.*}). If the
 * commit fails, or on abort, every data file of the statement is deleted: no snapshot, no orphan
 * file. With remote writers that includes the files of a worker that died before it reported
 * them: every file whose name carries the statement's operation id. The one exception is a
 * commit whose outcome is unknown (the catalog did not answer): its files may already be part of
 * the table, so they are kept and the error says so.
 */
public final class IcebergBatchSink
        implements BatchSink
{
    private static final Logger LOG = LoggerFactory.getLogger(IcebergBatchSink.class);
    /** Snapshot summary property naming the statement's write; files carry it in their names too. */
    public static final String OPERATION_ID = "ontul.operation-id";

    private enum State
    {
        OPEN, COMMITTED, ABORTED
    }

    private final IcebergTableHandle table;
    private final long targetFileSize;
    private final String operationId = UUID.randomUUID().toString();
    private final IcebergDataWriter local;
    private final List<DataFile> remoteFiles = new ArrayList<>();
    private final Optional<Transaction> createTransaction;
    private final boolean overwrite;
    private boolean remoteWriters;
    private volatile State state = State.OPEN;

    /**
     * @param allocator where copies of the appended batches are held until written (a child
     * allocator is made and closed at the end)
     * @param writerThreads how many threads encode Parquet
     * @param createTransaction for a table being created: the transaction that creates it, committed
     * with the rows
     */
    public IcebergBatchSink(IcebergTableHandle table, long targetFileSize, BufferAllocator allocator, int writerThreads, Optional<Transaction> createTransaction)
    {
        this(table, targetFileSize, allocator, writerThreads, createTransaction, false);
    }

    /**
     * @param overwrite whether the commit replaces every row of the snapshot {@code table} was
     *        read at (DELETE, UPDATE, MERGE: copy-on-write of the whole table, one overwrite
     *        commit), failing with TRANSACTION_CONFLICT if another commit added or removed data since
     */
    public IcebergBatchSink(IcebergTableHandle table, long targetFileSize, BufferAllocator allocator, int writerThreads, Optional<Transaction> createTransaction, boolean overwrite)
    {
        this.overwrite = overwrite;
        this.createTransaction = requireNonNull(createTransaction, "createTransaction is null");
        this.table = requireNonNull(table, "table is null");
        this.targetFileSize = targetFileSize;
        if (table.timeTravel()) {
            throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Cannot write to a snapshot of a table: '%s'", table.qualifiedName());
        }
        for (var field : table.schema().columns()) {
            if (field.isRequired() && table.column(field.name()).isEmpty()) {
                throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Cannot write to table '%s': its NOT NULL column '%s' has type %s, which Ontul cannot write",
                        table.qualifiedName(), field.name(), field.type());
            }
        }
        this.local = new IcebergDataWriter(table, operationId, 0, targetFileSize, allocator, writerThreads);
    }

    @Override
    public void append(VectorSchemaRoot batch)
    {
        if (state != State.OPEN) {
            throw OntulException.internal("append to the sink of table '" + table.qualifiedName() + "' after " + state.name().toLowerCase(), null);
        }
        local.append(batch);
    }

    @Override
    public synchronized Optional<byte[]> remoteWriterHandle()
    {
        remoteWriters = true;
        return Optional.of(IcebergRemoteWrite.of(table, operationId, targetFileSize).toBytes());
    }

    @Override
    public synchronized void addRemoteWrite(byte[] written)
    {
        if (state != State.OPEN) {
            throw OntulException.internal("files added to the sink of table '" + table.qualifiedName() + "' after " + state.name().toLowerCase(), null);
        }
        remoteFiles.addAll(DataFileList.deserialize(written, "the data files a worker wrote into table '" + table.qualifiedName() + "'"));
    }

    @Override
    public synchronized long commit()
    {
        if (state != State.OPEN) {
            throw OntulException.internal("commit of the sink of table '" + table.qualifiedName() + "' after " + state.name().toLowerCase(), null);
        }
        List<DataFile> files = new ArrayList<>();
        try {
            files.addAll(local.finishFiles());
        }
        catch (RuntimeException e) {
            abort();
            throw e;
        }
        files.addAll(remoteFiles);
        if (files.isEmpty() && createTransaction.isEmpty() && !overwrite) {
            state = State.COMMITTED;
            return 0;
        }
        try {
            if (overwrite) {
                OverwriteFiles replace = table.table().newOverwrite()
                        .overwriteByRowFilter(Expressions.alwaysTrue())
                        .conflictDetectionFilter(Expressions.alwaysTrue())
                        .validateNoConflictingData()
                        .validateNoConflictingDeletes();
                table.snapshot().ifPresent(read -> replace.validateFromSnapshot(read.snapshotId()));
                files.forEach(replace::addFile);
                replace.set(OPERATION_ID, operationId);
                replace.commit();
            }
            else if (!files.isEmpty()) {
                AppendFiles append = table.table().newAppend();
                files.forEach(append::appendFile);
                append.set(OPERATION_ID, operationId);
                append.commit();
            }
            createTransaction.ifPresent(Transaction::commitTransaction);
        }
        catch (CommitStateUnknownException e) {
            state = State.COMMITTED;
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, "Iceberg table '%s': the catalog did not confirm the commit of %d data files (operation %s), which may or may not be part of the table now: %s"
                    .formatted(table.qualifiedName(), files.size(), operationId, IcebergErrors.describe(e)), e);
        }
        catch (RuntimeException e) {
            state = State.ABORTED;
            IcebergDataWriter.delete(table, files.stream().map(DataFile::location).toList());
            deleteRemoteLeftovers();
            if (createTransaction.isPresent() && (e instanceof AlreadyExistsException || e instanceof CommitFailedException)) {
                throw new OntulException(ErrorCode.ALREADY_EXISTS, "Table '%s' was created by another statement while this one was writing it: %s".formatted(table.qualifiedName(), IcebergErrors.describe(e)), e);
            }
            if (e instanceof ValidationException) {
                throw new OntulException(ErrorCode.TRANSACTION_CONFLICT, "Table '%s' was written by another statement while this one ran; nothing was changed: run it again (%s)"
                        .formatted(table.qualifiedName(), IcebergErrors.describe(e)), e);
            }
            if (e instanceof NoSuchTableException) {
                throw new OntulException(ErrorCode.NOT_FOUND, "Table '%s' was dropped while the statement was writing to it".formatted(table.qualifiedName()), e);
            }
            if (e instanceof CommitFailedException) {
                throw new OntulException(ErrorCode.EXTERNAL_ERROR, "Iceberg table '%s': the commit failed after retries (concurrent writers?): %s".formatted(table.qualifiedName(), IcebergErrors.describe(e)), e);
            }
            throw IcebergErrors.table(table.qualifiedName(), "the commit failed", e);
        }
        state = State.COMMITTED;
        return files.stream().mapToLong(DataFile::recordCount).sum();
    }

    @Override
    public synchronized void abort()
    {
        if (state != State.OPEN) {
            return;
        }
        state = State.ABORTED;
        local.abort();
        IcebergDataWriter.delete(table, remoteFiles.stream().map(DataFile::location).toList());
        deleteRemoteLeftovers();
    }

    /** The files of remote writers that never reported them (a worker that died), found by the operation id in their names. */
    private void deleteRemoteLeftovers()
    {
        if (!remoteWriters) {
            return;
        }
        try {
            int deleted = IcebergLeftovers.deleteFilesOfOperation(table.qualifiedName(), table.table(), operationId);
            if (deleted > 0) {
                LOG.info("Deleted {} data files the workers left of the failed write {} to table '{}'", deleted, operationId, table.qualifiedName());
            }
        }
        catch (RuntimeException e) {
            LOG.warn("Could not look for data files the workers left of the failed write {} to table '{}'; they are orphan files now", operationId, table.qualifiedName(), e);
        }
    }
}
