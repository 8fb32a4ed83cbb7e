package io.ontul.catalog.iceberg.read;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.mapping.NameMapping;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.parquet.ParquetDictionaryRowGroupFilter;
import org.apache.iceberg.parquet.ParquetMetricsRowGroupFilter;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.iceberg.util.PartitionUtil;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.HadoopParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.util.HadoopCodecs;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

import io.ontul.catalog.iceberg.IcebergErrors;
import io.ontul.catalog.iceberg.IcebergTableHandle;
import io.ontul.catalog.iceberg.type.ArrowValues;
import io.ontul.catalog.iceberg.type.IcebergColumn;
import io.ontul.spi.BatchSource;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Reads one split of a Parquet data file into Arrow batches, column by column, reading only the
 * projected column chunks. Common types in the usual encodings (PLAIN and dictionary) are decoded
 * a page run at a time ({@link ParquetPageDecoder}); other columns go through Parquet's column
 * reader value by value ({@link ParquetColumnLoaders}). Row groups outside the split are not
 * read, nor those whose statistics or dictionaries rule out the split's residual filter. Table
 * columns are matched to file columns by Iceberg field id (by the table's name mapping, or by
 * position, for files without ids); a column missing from the file (added later) reads as its
 * identity-partition value or NULL. Rows deleted by position deletes are left out.
 */
public final class IcebergParquetBatchSource
        implements BatchSource
{
    static final int BATCH_ROWS = 32_768;
    /**
     * Loaded once: Parquet's default read options build a fresh Hadoop configuration, which parses
     * Hadoop's XML defaults again, a few milliseconds per file. Only read after loading.
     */
    private static final Configuration HADOOP_CONFIGURATION = loadedConfiguration();

    private final IcebergTableHandle table;
    private final int batchRows;
    private final FileScanTask task;
    private final List<IcebergColumn> columns;
    private final Schema schema;
    private final BufferAllocator allocator;

    private ParquetFileReader reader;
    private MessageType requestedSchema;
    private String createdBy;
    private ColumnDescriptor[] descriptors;
    private ParquetColumnLoader<?>[] loaders;
    private ParquetBulkLoader<?>[] bulkLoaders;
    private ParquetPageDecoder[] decoders;
    private int[] duplicateOf;
    private Object[] constants;
    private List<Integer> rowGroups;
    private List<Long> rowGroupStarts;
    private int nextRowGroup;
    private ColumnReader[] columnReaders;
    private long remainingInRowGroup;
    private long position;
    private PositionDeleteIndex deletes;
    private int skippedRowGroups;
    private boolean closed;

    public IcebergParquetBatchSource(IcebergTableHandle table, FileScanTask task, List<String> columnNames, BufferAllocator allocator)
    {
        this(table, task, columnNames, allocator, BATCH_ROWS);
    }

    /** @param maxBatchRows rows per batch at most (the scan's); batches hold {@link #BATCH_ROWS} at most in any case */
    public IcebergParquetBatchSource(IcebergTableHandle table, FileScanTask task, List<String> columnNames, BufferAllocator allocator, int maxBatchRows)
    {
        if (maxBatchRows < 1) {
            throw new IllegalArgumentException("maxBatchRows must be positive: " + maxBatchRows);
        }
        this.batchRows = Math.min(BATCH_ROWS, maxBatchRows);
        this.table = requireNonNull(table, "table is null");
        this.task = requireNonNull(task, "task is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        List<IcebergColumn> selected = new ArrayList<>(columnNames.size());
        for (String name : columnNames) {
            selected.add(table.column(name).orElseThrow(() -> OntulException.userError(ErrorCode.NOT_FOUND, "Column '%s' does not exist in table '%s'", name, table.qualifiedName())));
        }
        this.columns = List.copyOf(selected);
        this.schema = new Schema(columns.stream().map(IcebergColumn::arrowField).toList());
    }

    @Override
    public VectorSchemaRoot next()
    {
        if (closed) {
            return null;
        }
        try {
            if (reader == null) {
                open();
            }
            while (true) {
                if (remainingInRowGroup == 0 && !nextRowGroup()) {
                    return null;
                }
                int rows = (int) Math.min(batchRows, remainingInRowGroup);
                VectorSchemaRoot batch = readBatch(rows);
                remainingInRowGroup -= rows;
                position += rows;
                if (batch.getRowCount() > 0) {
                    return batch;
                }
                batch.close();
            }
        }
        catch (OntulException e) {
            throw e;
        }
        catch (IOException | RuntimeException e) {
            throw IcebergErrors.table(table.qualifiedName(), "reading data file " + task.file().location() + " failed", e);
        }
    }

    /** Row groups left out by the residual filter so far; for tests and EXPLAIN. */
    public int skippedRowGroups()
    {
        return skippedRowGroups;
    }

    private void open()
            throws IOException
    {
        org.apache.iceberg.io.InputFile input = table.table().io().newInputFile(task.file().location(), task.file().fileSizeInBytes());
        // a codec factory per file: the reader releases it when it closes
        ParquetReadOptions options = new ParquetReadOptions.Builder(new HadoopParquetConfiguration(HADOOP_CONFIGURATION))
                .withCodecFactory(HadoopCodecs.newFactory(HADOOP_CONFIGURATION, 0))
                .build();
        reader = ParquetFileReader.open(new IcebergParquetInputFile(input), options);
        MessageType fileSchema = reader.getFileMetaData().getSchema();
        MessageType schemaWithIds = withIds(fileSchema);
        createdBy = reader.getFileMetaData().getCreatedBy();
        Map<Integer, ?> partitionConstants = PartitionUtil.constantsMap(task);

        descriptors = new ColumnDescriptor[columns.size()];
        loaders = new ParquetColumnLoader<?>[columns.size()];
        bulkLoaders = new ParquetBulkLoader<?>[columns.size()];
        duplicateOf = new int[columns.size()];
        constants = new Object[columns.size()];
        List<Type> requestedFields = new ArrayList<>();
        Map<Integer, Integer> firstOutputOfField = new HashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            IcebergColumn column = columns.get(i);
            duplicateOf[i] = -1;
            Integer first = firstOutputOfField.putIfAbsent(column.fieldId(), i);
            if (first != null) {
                duplicateOf[i] = first;
                continue;
            }
            Optional<Integer> fileIndex = fieldIndex(schemaWithIds, column.fieldId());
            if (fileIndex.isEmpty()) {
                constants[i] = partitionConstants.get(column.fieldId());
                continue;
            }
            Type fileField = fileSchema.getType(fileIndex.get());
            descriptors[i] = fileSchema.getColumnDescription(leafPath(fileField, column));
            loaders[i] = ParquetColumnLoaders.create(fileSchema, descriptors[i], column.icebergType(), task.file().location());
            // deleted rows are left out value by value, which only the column reader path does
            bulkLoaders[i] = task.deletes().isEmpty() ? ParquetBulkLoaders.create(descriptors[i], column.icebergType()) : null;
            requestedFields.add(fileField);
        }
        requestedSchema = new MessageType(fileSchema.getName(), requestedFields);
        reader.setRequestedSchema(requestedSchema);

        Expression residual = task.residual();
        boolean filtered = residual != null && !residual.equals(Expressions.alwaysTrue());
        ParquetMetricsRowGroupFilter statistics = filtered ? new ParquetMetricsRowGroupFilter(table.schema(), residual, true) : null;
        ParquetDictionaryRowGroupFilter dictionaries = filtered ? new ParquetDictionaryRowGroupFilter(table.schema(), residual, true) : null;
        rowGroups = new ArrayList<>();
        rowGroupStarts = new ArrayList<>();
        List<BlockMetaData> blocks = reader.getRowGroups();
        long rowStart = 0;
        for (int i = 0; i < blocks.size(); i++) {
            BlockMetaData block = blocks.get(i);
            long firstRow = rowStart;
            rowStart += block.getRowCount();
            long offset = block.getStartingPos();
            if (offset < task.start() || offset >= task.start() + task.length()) {
                continue;
            }
            if (filtered && (!statistics.shouldRead(schemaWithIds, block) || !dictionaries.shouldRead(schemaWithIds, block, reader.getDictionaryReader(block)))) {
                skippedRowGroups++;
                continue;
            }
            rowGroups.add(i);
            rowGroupStarts.add(firstRow);
        }
        deletes = task.deletes().isEmpty() ? PositionDeleteIndex.empty() : new IcebergPositionDeletes(task, table.schema(), table.table().io()).positions();
    }

    private static Configuration loadedConfiguration()
    {
        Configuration configuration = new Configuration();
        configuration.size();
        return configuration;
    }

    private MessageType withIds(MessageType fileSchema)
    {
        if (ParquetSchemaUtil.hasIds(fileSchema)) {
            return fileSchema;
        }
        String mapping = table.table().properties().get(TableProperties.DEFAULT_NAME_MAPPING);
        if (mapping != null) {
            NameMapping nameMapping = NameMappingParser.fromJson(mapping);
            return ParquetSchemaUtil.applyNameMapping(fileSchema, nameMapping);
        }
        return ParquetSchemaUtil.addFallbackIds(fileSchema);
    }

    private static Optional<Integer> fieldIndex(MessageType schemaWithIds, int fieldId)
    {
        List<Type> fields = schemaWithIds.getFields();
        for (int i = 0; i < fields.size(); i++) {
            Type field = fields.get(i);
            if (field.getId() != null && field.getId().intValue() == fieldId && field.getRepetition() != Type.Repetition.REPEATED) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }

    /**
     * The path of the one leaf column of a file field: the field itself, or for a list the element
     * under its repeated group.
     *
     * @throws OntulException NOT_SUPPORTED for a group of several leaves (a list of structs, a map)
     */
    private String[] leafPath(Type fileField, IcebergColumn column)
    {
        List<String> path = new ArrayList<>();
        Type type = fileField;
        path.add(type.getName());
        while (!type.isPrimitive()) {
            org.apache.parquet.schema.GroupType group = type.asGroupType();
            if (group.getFieldCount() != 1) {
                throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Column '%s' of data file %s is the Parquet group %s, which Ontul cannot read as Iceberg type %s",
                        column.name(), task.file().location(), fileField, column.icebergType());
            }
            type = group.getType(0);
            path.add(type.getName());
        }
        return path.toArray(String[]::new);
    }

    private boolean nextRowGroup()
            throws IOException
    {
        while (nextRowGroup < rowGroups.size()) {
            int index = rowGroups.get(nextRowGroup);
            position = rowGroupStarts.get(nextRowGroup);
            nextRowGroup++;
            columnReaders = new ColumnReader[columns.size()];
            decoders = new ParquetPageDecoder[columns.size()];
            BlockMetaData block = reader.getRowGroups().get(index);
            if (requestedSchema.getFieldCount() == 0) {
                remainingInRowGroup = block.getRowCount();
            }
            else {
                PageReadStore pages = reader.readRowGroup(index);
                remainingInRowGroup = pages.getRowCount();
                ColumnReadStoreImpl store = null;
                for (int i = 0; i < columns.size(); i++) {
                    if (descriptors[i] == null) {
                        continue;
                    }
                    if (bulkLoaders[i] != null && ParquetPageDecoder.supports(descriptors[i], encodings(block, descriptors[i]))) {
                        decoders[i] = new ParquetPageDecoder(descriptors[i], pages.getPageReader(descriptors[i]));
                        continue;
                    }
                    if (store == null) {
                        store = new ColumnReadStoreImpl(pages, new ParquetSkippingConverter(requestedSchema), requestedSchema, createdBy);
                    }
                    columnReaders[i] = store.getColumnReader(descriptors[i]);
                }
            }
            if (remainingInRowGroup > 0) {
                return true;
            }
        }
        return false;
    }

    private static Set<Encoding> encodings(BlockMetaData block, ColumnDescriptor descriptor)
    {
        ColumnPath path = ColumnPath.get(descriptor.getPath());
        for (ColumnChunkMetaData chunk : block.getColumns()) {
            if (chunk.getPath().equals(path)) {
                return chunk.getEncodings();
            }
        }
        return Set.of(Encoding.DELTA_BINARY_PACKED);
    }

    private VectorSchemaRoot readBatch(int rows)
    {
        boolean[] deleted = null;
        int kept = rows;
        if (!deletes.isEmpty()) {
            boolean[] marks = new boolean[rows];
            long first = position;
            deletes.forEachInRange(first, first + rows, deletedPosition -> {
                if (deletedPosition >= first && deletedPosition < first + rows) {
                    marks[(int) (deletedPosition - first)] = true;
                }
            });
            for (boolean mark : marks) {
                if (mark) {
                    kept--;
                }
            }
            deleted = kept == rows ? null : marks;
        }
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator);
        try {
            for (int i = 0; i < columns.size(); i++) {
                FieldVector vector = batch.getVector(i);
                if (decoders[i] != null) {
                    bulkLoaders[i].load(decoders[i], vector, rows);
                }
                else if (loaders[i] != null) {
                    loaders[i].load(columnReaders[i], vector, rows, deleted, kept);
                }
                else if (duplicateOf[i] < 0) {
                    fillConstant(vector, kept, constants[i], columns.get(i));
                }
            }
            for (int i = 0; i < columns.size(); i++) {
                if (duplicateOf[i] >= 0) {
                    FieldVector source = batch.getVector(duplicateOf[i]);
                    FieldVector target = batch.getVector(i);
                    target.setInitialCapacity(kept);
                    target.allocateNew();
                    for (int row = 0; row < kept; row++) {
                        target.copyFromSafe(row, row, source);
                    }
                    target.setValueCount(kept);
                }
            }
            batch.setRowCount(kept);
            return batch;
        }
        catch (RuntimeException e) {
            batch.close();
            throw e;
        }
    }

    private static void fillConstant(FieldVector vector, int rows, Object value, IcebergColumn column)
    {
        vector.setInitialCapacity(rows);
        vector.allocateNew();
        for (int row = 0; row < rows; row++) {
            ArrowValues.set(vector, row, value, column.icebergType());
        }
        vector.setValueCount(rows);
    }

    @Override
    public void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        if (reader != null) {
            try {
                reader.close();
            }
            catch (IOException e) {
                // a file opened for reading loses nothing when its close fails
            }
            reader = null;
        }
    }
}
