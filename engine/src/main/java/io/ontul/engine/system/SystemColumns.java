package io.ontul.engine.system;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The columns of a system table whose rows are objects of type {@code T}, each a name, a type
 * (VARCHAR, BIGINT or TIMESTAMP in UTC) and how to take its value from a row; and the batches
 * that hold the columns a scan asks for. A new figure is one more column.
 */
final class SystemColumns<T>
{
    static final ArrowType VARCHAR = ArrowType.Utf8.INSTANCE;
    static final ArrowType BIGINT = new ArrowType.Int(64, true);
    static final ArrowType TIMESTAMP = new ArrowType.Timestamp(TimeUnit.MILLISECOND, null);

    record Column<T>(Field field, Function<T, Object> value) {}

    private final String table;
    private final List<Column<T>> columns;
    private final Schema schema;

    /** @param table the table's qualified name, for errors */
    SystemColumns(String table, List<Column<T>> columns)
    {
        this.table = requireNonNull(table, "table is null");
        this.columns = List.copyOf(columns);
        this.schema = new Schema(this.columns.stream().map(Column::field).toList());
    }

    static <T> Column<T> column(String name, ArrowType type, boolean nullable, Function<T, Object> value)
    {
        return new Column<>(new Field(name, nullable ? FieldType.nullable(type) : FieldType.notNullable(type), null), value);
    }

    Schema schema()
    {
        return schema;
    }

    /** One batch holding the columns named (in that order) of {@code rows}. */
    VectorSchemaRoot batch(List<T> rows, List<String> names, BufferAllocator allocator)
    {
        List<Column<T>> selected = names.stream()
                .map(name -> columns.stream().filter(column -> column.field().getName().equals(name)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("No column " + name + " in " + table)))
                .toList();
        VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(selected.stream().map(Column::field).toList()), allocator);
        try {
            root.allocateNew();
            for (int column = 0; column < selected.size(); column++) {
                FieldVector vector = root.getVector(column);
                for (int row = 0; row < rows.size(); row++) {
                    set(vector, row, selected.get(column).value().apply(rows.get(row)));
                }
                vector.setValueCount(rows.size());
            }
            root.setRowCount(rows.size());
            return root;
        }
        catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    private static void set(FieldVector vector, int row, Object value)
    {
        if (value == null) {
            vector.setNull(row);
        }
        else if (vector instanceof VarCharVector varchar) {
            varchar.setSafe(row, ((String) value).getBytes(StandardCharsets.UTF_8));
        }
        else if (vector instanceof BigIntVector bigint) {
            bigint.setSafe(row, (Long) value);
        }
        else {
            ((TimeStampMilliVector) vector).setSafe(row, ((Instant) value).toEpochMilli());
        }
    }
}
