package io.ontul.engine.execution;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.api.QueryResult;

/**
 * A small result computed up front: metadata listings (SHOW ...), EXPLAIN text and the row
 * counts of statements that change data. Columns are VARCHAR or BIGINT.
 */
public final class StaticResult
        implements QueryResult
{
    private final String queryId;
    private final Schema schema;
    private final boolean update;
    private VectorSchemaRoot batch;
    private boolean delivered;

    private StaticResult(String queryId, Schema schema, VectorSchemaRoot batch, boolean update)
    {
        this.queryId = queryId;
        this.schema = schema;
        this.batch = batch;
        this.update = update;
    }

    public static StaticResult text(String queryId, BufferAllocator allocator, List<String> columns, List<List<String>> rows)
    {
        List<Field> fields = new ArrayList<>();
        for (String column : columns) {
            fields.add(new Field(column, FieldType.nullable(ArrowType.Utf8.INSTANCE), null));
        }
        Schema schema = new Schema(fields);
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        root.allocateNew();
        for (int row = 0; row < rows.size(); row++) {
            for (int column = 0; column < columns.size(); column++) {
                String value = rows.get(row).get(column);
                VarCharVector vector = (VarCharVector) root.getVector(column);
                if (value == null) {
                    vector.setNull(row);
                }
                else {
                    vector.setSafe(row, value.getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        for (FieldVector vector : root.getFieldVectors()) {
            vector.setValueCount(rows.size());
        }
        root.setRowCount(rows.size());
        return new StaticResult(queryId, schema, root, false);
    }

    /**
     * A listing with VARCHAR columns (String values) and BIGINT columns (Long values), as the
     * fields say; values may be null.
     */
    public static StaticResult rows(String queryId, BufferAllocator allocator, List<Field> columns, List<List<Object>> rows)
    {
        Schema schema = new Schema(columns);
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        root.allocateNew();
        for (int row = 0; row < rows.size(); row++) {
            for (int column = 0; column < columns.size(); column++) {
                Object value = rows.get(row).get(column);
                FieldVector vector = root.getVector(column);
                if (value == null) {
                    vector.setNull(row);
                }
                else if (vector instanceof BigIntVector bigint) {
                    bigint.setSafe(row, (Long) value);
                }
                else {
                    ((VarCharVector) vector).setSafe(row, value.toString().getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        for (FieldVector vector : root.getFieldVectors()) {
            vector.setValueCount(rows.size());
        }
        root.setRowCount(rows.size());
        return new StaticResult(queryId, schema, root, false);
    }

    public static StaticResult updateCount(String queryId, BufferAllocator allocator, long rows)
    {
        Schema schema = new Schema(List.of(new Field("rows", FieldType.notNullable(new ArrowType.Int(64, true)), null)));
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        root.allocateNew();
        ((BigIntVector) root.getVector(0)).setSafe(0, rows);
        root.getVector(0).setValueCount(1);
        root.setRowCount(1);
        return new StaticResult(queryId, schema, root, true);
    }

    @Override
    public String queryId()
    {
        return queryId;
    }

    @Override
    public Schema schema()
    {
        return schema;
    }

    @Override
    public boolean isUpdate()
    {
        return update;
    }

    /** The update count of a statement that changed data, else the number of rows; 0 once closed. */
    public long rowCount()
    {
        if (batch == null) {
            return 0;
        }
        return update ? ((BigIntVector) batch.getVector(0)).get(0) : batch.getRowCount();
    }

    /** Arrow buffer bytes of the result. */
    public long bufferBytes()
    {
        if (batch == null) {
            return 0;
        }
        long bytes = 0;
        for (FieldVector vector : batch.getFieldVectors()) {
            bytes += vector.getBufferSize();
        }
        return bytes;
    }

    @Override
    public VectorSchemaRoot nextBatch()
    {
        if (delivered) {
            close();
            return null;
        }
        delivered = true;
        return batch;
    }

    @Override
    public void close()
    {
        if (batch != null) {
            batch.close();
            batch = null;
        }
    }
}
