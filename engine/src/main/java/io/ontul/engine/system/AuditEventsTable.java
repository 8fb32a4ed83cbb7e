package io.ontul.engine.system;

import java.util.List;
import java.util.function.Function;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.security.AuditLog;

/**
 * {@code system.audit.events}: the audit log ({@link AuditLog}), oldest first; administrators
 * only. {@code time} is a TIMESTAMP in UTC.
 */
final class AuditEventsTable
{
    static final String SCHEMA = "audit";
    static final String NAME = "events";

    private record Column(Field field, Function<AuditLog.Event, Object> value) {}

    private static final ArrowType VARCHAR = ArrowType.Utf8.INSTANCE;

    private static final List<Column> COLUMNS = List.of(
            new Column(new Field("time", FieldType.notNullable(new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)), null), AuditLog.Event::time),
            column("kind", false, event -> event.kind().name()),
            column("user", false, AuditLog.Event::user),
            column("address", true, AuditLog.Event::address),
            column("statement", true, AuditLog.Event::statement),
            column("outcome", false, AuditLog.Event::outcome),
            column("detail", true, AuditLog.Event::detail));

    static final Schema SCHEMA_COLUMNS = new Schema(COLUMNS.stream().map(Column::field).toList());

    private AuditEventsTable() {}

    private static Column column(String name, boolean nullable, Function<AuditLog.Event, Object> value)
    {
        return new Column(new Field(name, nullable ? FieldType.nullable(VARCHAR) : FieldType.notNullable(VARCHAR), null), value);
    }

    /** One batch holding {@code columns} (in that order) of {@code events}. */
    static VectorSchemaRoot batch(List<AuditLog.Event> events, List<String> columns, BufferAllocator allocator)
    {
        List<Column> selected = columns.stream()
                .map(name -> COLUMNS.stream().filter(column -> column.field().getName().equals(name)).findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("No column " + name + " in system.audit.events")))
                .toList();
        VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(selected.stream().map(Column::field).toList()), allocator);
        try {
            root.allocateNew();
            for (int column = 0; column < selected.size(); column++) {
                FieldVector vector = root.getVector(column);
                for (int row = 0; row < events.size(); row++) {
                    QueriesTable.set(vector, row, selected.get(column).value().apply(events.get(row)));
                }
                vector.setValueCount(events.size());
            }
            root.setRowCount(events.size());
            return root;
        }
        catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }
}
