package io.ontul.catalog.iceberg.write;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;

import io.ontul.catalog.iceberg.type.IcebergColumn;

/**
 * One row of an Arrow batch seen as an Iceberg {@link Record}, a cursor moved row by row, so that
 * Iceberg's generic Parquet writer writes the batch without a record object per row. Columns of
 * the table that Ontul does not read (binary, nested) are written as NULL. Read-only.
 */
final class ArrowRowRecord
        implements Record
{
    private final String tableName;
    private final Types.StructType struct;
    /** For each Iceberg field, in schema order: its column in the batch, or -1. */
    private final int[] batchColumns;
    private final ArrowValueGetter[] getters;
    private int row;

    ArrowRowRecord(String tableName, Types.StructType struct, List<IcebergColumn> columns)
    {
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.struct = requireNonNull(struct, "struct is null");
        List<Types.NestedField> fields = struct.fields();
        this.batchColumns = new int[fields.size()];
        for (int field = 0; field < fields.size(); field++) {
            batchColumns[field] = -1;
            for (int column = 0; column < columns.size(); column++) {
                if (columns.get(column).fieldId() == fields.get(field).fieldId()) {
                    batchColumns[field] = column;
                }
            }
        }
        this.getters = new ArrowValueGetter[fields.size()];
    }

    /** Points the record at a new batch, whose columns are the table's readable columns in order. */
    void reset(VectorSchemaRoot batch)
    {
        List<Types.NestedField> fields = struct.fields();
        for (int field = 0; field < fields.size(); field++) {
            int column = batchColumns[field];
            getters[field] = column < 0 ? null : ArrowValueGetters.create(batch.getVector(column), fields.get(field).type(), fields.get(field).name(), tableName);
        }
        row = 0;
    }

    void position(int row)
    {
        this.row = row;
    }

    @Override
    public Types.StructType struct()
    {
        return struct;
    }

    @Override
    public Object getField(String name)
    {
        List<Types.NestedField> fields = struct.fields();
        for (int field = 0; field < fields.size(); field++) {
            if (fields.get(field).name().equals(name)) {
                return get(field);
            }
        }
        return null;
    }

    @Override
    public Object get(int position)
    {
        ArrowValueGetter getter = getters[position];
        return getter == null ? null : getter.get(row);
    }

    @Override
    public int size()
    {
        return getters.length;
    }

    @Override
    public <T> T get(int position, Class<T> javaClass)
    {
        return javaClass.cast(get(position));
    }

    @Override
    public <T> void set(int position, T value)
    {
        throw new UnsupportedOperationException("read-only");
    }

    @Override
    public void setField(String name, Object value)
    {
        throw new UnsupportedOperationException("read-only");
    }

    @Override
    public Record copy()
    {
        throw new UnsupportedOperationException("a cursor over Arrow vectors cannot be copied");
    }

    @Override
    public Record copy(Map<String, Object> overwriteValues)
    {
        throw new UnsupportedOperationException("a cursor over Arrow vectors cannot be copied");
    }
}
