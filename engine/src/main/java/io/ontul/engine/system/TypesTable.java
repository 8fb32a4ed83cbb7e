package io.ontul.engine.system;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.type.TypeInfo;

/**
 * {@code system.jdbc.types}: Ontul's SQL types with what JDBC's {@code getTypeInfo} reports of
 * them, one row per type of {@link TypeInfo}, in its column names (create_params as a comma
 * separated list). Ontul's JDBC driver answers {@code getTypeInfo} from it, as Trino's does from
 * its table of the same name.
 */
final class TypesTable
{
    static final String SCHEMA = "jdbc";
    static final String NAME = "types";

    private static final ArrowType VARCHAR = ArrowType.Utf8.INSTANCE;
    private static final ArrowType INTEGER = new ArrowType.Int(32, true);
    private static final ArrowType BOOLEAN = ArrowType.Bool.INSTANCE;
    private static final List<ArrowType> TYPES = List.of(VARCHAR, INTEGER, INTEGER, VARCHAR, VARCHAR, VARCHAR, INTEGER, BOOLEAN, INTEGER, BOOLEAN, BOOLEAN,
            BOOLEAN, VARCHAR, INTEGER, INTEGER, INTEGER, INTEGER, INTEGER, INTEGER);

    static final Schema SCHEMA_COLUMNS;

    static {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < TypeInfo.COLUMN_NAMES.size(); i++) {
            fields.add(new Field(TypeInfo.COLUMN_NAMES.get(i), i <= 1 ? FieldType.notNullable(TYPES.get(i)) : FieldType.nullable(TYPES.get(i)), null));
        }
        SCHEMA_COLUMNS = new Schema(fields);
    }

    private TypesTable() {}

    /** One batch holding {@code columns} (in that order) of every type. */
    static VectorSchemaRoot batch(List<String> columns, BufferAllocator allocator)
    {
        List<List<Object>> rows = TypeInfo.rows(null);
        List<Field> fields = columns.stream().map(name -> SCHEMA_COLUMNS.findField(name)).toList();
        VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(fields), allocator);
        try {
            root.allocateNew();
            for (int column = 0; column < columns.size(); column++) {
                int index = TypeInfo.COLUMN_NAMES.indexOf(columns.get(column));
                FieldVector vector = root.getVector(column);
                for (int row = 0; row < rows.size(); row++) {
                    set(vector, row, rows.get(row).get(index));
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
            String text = value instanceof List<?> list ? String.join(",", list.stream().map(String::valueOf).toList()) : String.valueOf(value);
            varchar.setSafe(row, text.getBytes(StandardCharsets.UTF_8));
        }
        else if (vector instanceof IntVector integer) {
            integer.setSafe(row, ((Number) value).intValue());
        }
        else {
            ((BitVector) vector).setSafe(row, (Boolean) value ? 1 : 0);
        }
    }
}
