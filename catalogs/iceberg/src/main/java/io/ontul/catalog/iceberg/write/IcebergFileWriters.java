package io.ontul.catalog.iceberg.write;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.util.StructLikeWrapper;

import io.ontul.catalog.iceberg.IcebergTableHandle;
import io.ontul.catalog.iceberg.type.IcebergColumn;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The data files one writer thread writes: one rolling Parquet writer for an unpartitioned
 * table, one per partition for a partitioned table. At most {@value #MAX_OPEN_PARTITIONS}
 * partitions stay open (each buffers a row group in memory); the least recently written is then
 * closed, so rows of many partitions in random order make more, smaller files rather than
 * running out of memory.
 */
final class IcebergFileWriters
{
    static final int MAX_OPEN_PARTITIONS = 256;

    private final PartitionSpec spec;
    private final FileWriterFactory<Record> writerFactory;
    private final OutputFileFactory fileFactory;
    private final FileIO io;
    private final long targetFileSize;
    private final ArrowRowRecord record;
    private final InternalRecordWrapper internalRecord;
    private final PartitionKey partitionKey;
    private final StructLikeWrapper lookupKey;
    private final LinkedHashMap<StructLikeWrapper, RollingDataWriter<Record>> partitionWriters = new LinkedHashMap<>(16, 0.75f, true);
    private final List<DataFile> completed = new ArrayList<>();
    /** Files whose close failed: not committed, deleted by {@link #abandon()}. */
    private final List<String> unfinished = new ArrayList<>();
    private RollingDataWriter<Record> unpartitionedWriter;

    /**
     * Writers of new data files of {@code table}: Parquet, named after the operation, the writer
     * thread ({@code writerId}) and the process's writer of the operation ({@code taskId}: 0 on the
     * process that commits, the worker's number on a worker of a cluster).
     */
    static IcebergFileWriters open(IcebergTableHandle table, FileWriterFactory<Record> writerFactory, int writerId, int taskId, String operationId, long targetFileSize)
    {
        Table icebergTable = table.table();
        OutputFileFactory files = OutputFileFactory.builderFor(icebergTable, writerId, taskId)
                .format(FileFormat.PARQUET)
                .operationId(operationId)
                .build();
        return new IcebergFileWriters(table.qualifiedName(), table.schema(), icebergTable.spec(), table.columns(), writerFactory, files, icebergTable.io(), targetFileSize);
    }

    /** Checks a batch against the table's columns: their count, and no NULL in a NOT NULL column. */
    static void checkColumns(IcebergTableHandle table, VectorSchemaRoot batch)
    {
        List<IcebergColumn> columns = table.columns();
        List<FieldVector> vectors = batch.getFieldVectors();
        if (vectors.size() != columns.size()) {
            throw OntulException.internal("batch for table '%s' has %d columns, the table %d".formatted(table.qualifiedName(), vectors.size(), columns.size()), null);
        }
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).required() && vectors.get(i).getNullCount() > 0) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "NULL value not allowed for NOT NULL column '%s' of table '%s'", columns.get(i).name(), table.qualifiedName());
            }
        }
    }

    IcebergFileWriters(String tableName, Schema schema, PartitionSpec spec, List<IcebergColumn> columns, FileWriterFactory<Record> writerFactory, OutputFileFactory fileFactory, FileIO io, long targetFileSize)
    {
        this.spec = requireNonNull(spec, "spec is null");
        this.writerFactory = requireNonNull(writerFactory, "writerFactory is null");
        this.fileFactory = requireNonNull(fileFactory, "fileFactory is null");
        this.io = requireNonNull(io, "io is null");
        this.targetFileSize = targetFileSize;
        this.record = new ArrowRowRecord(tableName, schema.asStruct(), columns);
        this.internalRecord = new InternalRecordWrapper(schema.asStruct());
        this.partitionKey = new PartitionKey(spec, schema);
        this.lookupKey = StructLikeWrapper.forType(spec.partitionType());
    }

    synchronized void write(VectorSchemaRoot batch)
    {
        record.reset(batch);
        int rows = batch.getRowCount();
        if (spec.isUnpartitioned()) {
            if (unpartitionedWriter == null) {
                unpartitionedWriter = new RollingDataWriter<>(writerFactory, fileFactory, io, targetFileSize, spec, null);
            }
            for (int row = 0; row < rows; row++) {
                record.position(row);
                unpartitionedWriter.write(record);
            }
            return;
        }
        // Rows are written partition by partition rather than in arrival order: one file's
        // dictionaries and buffers stay in the CPU caches, which made writes several times faster.
        Map<StructLikeWrapper, Integer> groups = new HashMap<>();
        List<PartitionKey> keys = new ArrayList<>();
        int[] groupOfRow = new int[rows];
        for (int row = 0; row < rows; row++) {
            record.position(row);
            // partition transforms take Iceberg's internal values (days, microseconds)
            partitionKey.partition(internalRecord.wrap(record));
            Integer group = groups.get(lookupKey.set(partitionKey));
            if (group == null) {
                PartitionKey key = partitionKey.copy();
                group = keys.size();
                keys.add(key);
                groups.put(StructLikeWrapper.forType(spec.partitionType()).set(key), group);
            }
            groupOfRow[row] = group;
        }
        int[] starts = new int[keys.size() + 1];
        for (int group : groupOfRow) {
            starts[group + 1]++;
        }
        for (int group = 0; group < keys.size(); group++) {
            starts[group + 1] += starts[group];
        }
        int[] next = Arrays.copyOf(starts, keys.size());
        int[] rowsByGroup = new int[rows];
        for (int row = 0; row < rows; row++) {
            rowsByGroup[next[groupOfRow[row]]++] = row;
        }
        for (int group = 0; group < keys.size(); group++) {
            RollingDataWriter<Record> writer = writer(keys.get(group));
            for (int index = starts[group]; index < starts[group + 1]; index++) {
                record.position(rowsByGroup[index]);
                writer.write(record);
            }
        }
    }

    private RollingDataWriter<Record> writer(PartitionKey partition)
    {
        RollingDataWriter<Record> writer = partitionWriters.get(lookupKey.set(partition));
        if (writer != null) {
            return writer;
        }
        writer = new RollingDataWriter<>(writerFactory, fileFactory, io, targetFileSize, spec, partition);
        partitionWriters.put(StructLikeWrapper.forType(spec.partitionType()).set(partition), writer);
        if (partitionWriters.size() > MAX_OPEN_PARTITIONS) {
            Iterator<Map.Entry<StructLikeWrapper, RollingDataWriter<Record>>> eldest = partitionWriters.entrySet().iterator();
            RollingDataWriter<Record> evicted = eldest.next().getValue();
            eldest.remove();
            close(evicted);
        }
        return writer;
    }

    /** Closes every open file; returns all files this thread wrote. */
    synchronized List<DataFile> finish()
    {
        if (unpartitionedWriter != null) {
            RollingDataWriter<Record> writer = unpartitionedWriter;
            unpartitionedWriter = null;
            close(writer);
        }
        for (Iterator<RollingDataWriter<Record>> writers = partitionWriters.values().iterator(); writers.hasNext(); ) {
            RollingDataWriter<Record> writer = writers.next();
            writers.remove();
            close(writer);
        }
        return List.copyOf(completed);
    }

    /**
     * Closes what is open, ignoring failures, and returns the location of every file written or
     * started, for deletion.
     */
    synchronized List<String> abandon()
    {
        List<String> locations = new ArrayList<>(unfinished);
        unfinished.clear();
        completed.forEach(file -> locations.add(file.location()));
        completed.clear();
        List<RollingDataWriter<Record>> open = new ArrayList<>(partitionWriters.values());
        partitionWriters.clear();
        if (unpartitionedWriter != null) {
            open.add(unpartitionedWriter);
            unpartitionedWriter = null;
        }
        for (RollingDataWriter<Record> writer : open) {
            currentFile(writer).ifPresent(locations::add);
            try {
                writer.close();
                writer.result().dataFiles().forEach(file -> locations.add(file.location()));
            }
            catch (IOException | RuntimeException e) {
                // the files are deleted by location below
            }
        }
        return locations.stream().distinct().toList();
    }

    private void close(RollingDataWriter<Record> writer)
    {
        Optional<String> current = currentFile(writer);
        try {
            writer.close();
        }
        catch (IOException | RuntimeException e) {
            current.ifPresent(unfinished::add);
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
        completed.addAll(writer.result().dataFiles());
    }

    private static Optional<String> currentFile(RollingDataWriter<Record> writer)
    {
        try {
            return Optional.ofNullable(writer.currentFilePath()).map(CharSequence::toString);
        }
        catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}
