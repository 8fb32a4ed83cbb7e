package io.ontul.catalog.iceberg.metadata;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.CloseableIterator;
import org.apache.iceberg.types.Type;

import io.ontul.catalog.iceberg.IcebergErrors;
import io.ontul.catalog.iceberg.IcebergMetadataTableHandle;
import io.ontul.catalog.iceberg.type.ArrowValues;
import io.ontul.catalog.iceberg.type.IcebergColumn;
import io.ontul.spi.BatchSource;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Reads all rows of a metadata table: Iceberg plans it into data tasks whose rows it builds from
 * the table's metadata (snapshots, manifests); this source copies them into Arrow batches.
 */
public final class IcebergMetadataBatchSource
        implements BatchSource
{
    private static final int BATCH_ROWS = 4096;

    private final IcebergMetadataTableHandle table;
    private final List<IcebergColumn> columns;
    private final int[] positions;
    private final BufferAllocator allocator;
    private Iterator<FileScanTask> tasks;
    private CloseableIterable<FileScanTask> plannedTasks;
    private CloseableIterator<StructLike> rows;

    public IcebergMetadataBatchSource(IcebergMetadataTableHandle table, List<String> columnNames, BufferAllocator allocator)
    {
        this.table = requireNonNull(table, "table is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        List<IcebergColumn> selected = new ArrayList<>();
        List<org.apache.iceberg.types.Types.NestedField> fields = table.metadataTable().schema().columns();
        this.positions = new int[columnNames.size()];
        for (int i = 0; i < columnNames.size(); i++) {
            String name = columnNames.get(i);
            IcebergColumn column = table.columns().stream().filter(candidate -> candidate.name().equals(name)).findFirst()
                    .orElseThrow(() -> OntulException.userError(ErrorCode.NOT_FOUND, "Column '%s' does not exist in table '%s'", name, table.qualifiedName()));
            selected.add(column);
            for (int position = 0; position < fields.size(); position++) {
                if (fields.get(position).fieldId() == column.fieldId()) {
                    positions[i] = position;
                }
            }
        }
        this.columns = List.copyOf(selected);
    }

    @Override
    public VectorSchemaRoot next()
    {
        try {
            if (tasks == null) {
                plannedTasks = table.metadataTable().newScan().planFiles();
                tasks = plannedTasks.iterator();
            }
            Schema schema = new Schema(columns.stream().map(IcebergColumn::arrowField).toList());
            VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
            try {
                root.allocateNew();
                int count = 0;
                while (count < BATCH_ROWS && nextRow()) {
                    StructLike row = rows.next();
                    for (int i = 0; i < columns.size(); i++) {
                        IcebergColumn column = columns.get(i);
                        set(root.getVector(i), count, row.get(positions[i], Object.class), column.icebergType());
                    }
                    count++;
                }
                if (count == 0) {
                    root.close();
                    return null;
                }
                root.setRowCount(count);
                return root;
            }
            catch (RuntimeException e) {
                root.close();
                throw e;
            }
        }
        catch (RuntimeException e) {
            throw IcebergErrors.table(table.qualifiedName(), "reading the metadata failed", e);
        }
    }

    private boolean nextRow()
    {
        while (rows == null || !rows.hasNext()) {
            closeRows();
            if (!tasks.hasNext()) {
                return false;
            }
            FileScanTask task = tasks.next();
            rows = task.asDataTask().rows().iterator();
        }
        return true;
    }

    private static void set(FieldVector vector, int index, Object value, Type type)
    {
        if (value != null && type.typeId() != Type.TypeID.STRING && type.typeId() != Type.TypeID.UUID && vector instanceof VarCharVector text) {
            text.setSafe(index, MetadataText.render(value, type).getBytes(UTF_8));
            return;
        }
        ArrowValues.set(vector, index, value, type);
    }

    private void closeRows()
    {
        if (rows != null) {
            try {
                rows.close();
            }
            catch (IOException e) {
                // metadata rows are built in memory; a failed close loses nothing
            }
            rows = null;
        }
    }

    @Override
    public void close()
    {
        closeRows();
        if (plannedTasks != null) {
            try {
                plannedTasks.close();
            }
            catch (IOException e) {
                // as above
            }
            plannedTasks = null;
        }
    }
}
