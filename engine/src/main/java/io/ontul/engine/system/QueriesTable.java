package io.ontul.engine.system;

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

import io.ontul.engine.query.QueryInfo;

/**
 * {@code system.runtime.queries}: one row per statement the registry knows, with the columns
 * below. {@code created} is a TIMESTAMP in UTC. A new figure (spilled bytes, say) is one more
 * entry in {@link #COLUMNS}.
 */
final class QueriesTable
{
    static final String SCHEMA = "runtime";
    static final String NAME = "queries";

    private record Column(Field field, Function<QueryInfo, Object> value) {}

    private static final ArrowType VARCHAR = ArrowType.Utf8.INSTANCE;
    private static final ArrowType BIGINT = new ArrowType.Int(64, true);
    private static final ArrowType TIMESTAMP = new ArrowType.Timestamp(TimeUnit.MILLISECOND, null);

    private static final List<Column> COLUMNS = List.of(
            column("query_id", VARCHAR, false, QueryInfo::queryId),
            column("user", VARCHAR, false, QueryInfo::user),
            column("state", VARCHAR, false, query -> query.state().name()),
            column("query", VARCHAR, false, QueryInfo::query),
            column("created", TIMESTAMP, false, QueryInfo::created),
            column("elapsed_ms", BIGINT, false, QueryInfo::elapsedMillis),
            column("rows", BIGINT, false, QueryInfo::rows),
            column("bytes", BIGINT, false, QueryInfo::bytes),
            column("peak_memory_bytes", BIGINT, false, QueryInfo::peakMemoryBytes),
            column("spilled_bytes", BIGINT, false, QueryInfo::spilledBytes),
            column("spill_files", BIGINT, false, QueryInfo::spillFiles),
            column("error", VARCHAR, true, query -> query.error().orElse(null)));

    static final Schema SCHEMA_COLUMNS = new Schema(COLUMNS.stream().map(Column::field).toList());

    private QueriesTable() {}

    private static Column column(String name, ArrowType type, boolean nullable, Function<QueryInfo, Object> value)
    {
        return new Column(new Field(name, nullable ? FieldType.nullable(type) : FieldType.notNullable(type), null), value);
    }

    /** One batch holding {@code columns} (in that order) of {@code queries}. */
    static VectorSchemaRoot batch(List<QueryInfo> queries, List<String> columns, BufferAllocator allocator)
    {
        List<Column> selected = columns.stream().map(QueriesTable::column).toList();
        VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(selected.stream().map(Column::field).toList()), allocator);
        try {
            root.allocateNew();
            for (int column = 0; column < selected.size(); column++) {
                FieldVector vector = root.getVector(column);
                for (int row = 0; row < queries.size(); row++) {
                    set(vector, row, selected.get(column).value().apply(queries.get(row)));
                }
                vector.setValueCount(queries.size());
            }
            root.setRowCount(queries.size());
            return root;
        }
        catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    private static Column column(String name)
    {
        return COLUMNS.stream()
                .filter(column -> column.field().getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("No column " + name + " in system.runtime.queries"));
    }

    static void set(FieldVector vector, int row, Object value)
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
