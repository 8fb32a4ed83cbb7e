package io.ontul.server.flight;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.List;

import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Sends the small results of metadata commands (catalogs, schemas, tables, table types, keys,
 * type info) as one batch with the schema the Flight SQL spec gives the command. Values are
 * strings for Utf8 columns, byte arrays for Binary, Integer for Int(32), Boolean for Bool and
 * lists of strings for List&lt;Utf8&gt; columns; null leaves a null.
 */
public final class MetadataBatches
{
    private MetadataBatches() {}

    public static void send(BufferAllocator allocator, Schema schema, List<List<Object>> rows, ServerStreamListener listener)
    {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            root.allocateNew();
            for (int row = 0; row < rows.size(); row++) {
                List<Object> values = rows.get(row);
                for (int column = 0; column < values.size(); column++) {
                    set(root.getVector(column), row, values.get(column));
                }
            }
            for (FieldVector vector : root.getFieldVectors()) {
                vector.setValueCount(rows.size());
            }
            root.setRowCount(rows.size());
            listener.start(root);
            listener.putNext();
            listener.completed();
        }
        catch (RuntimeException e) {
            listener.error(ErrorMapping.toFlight(e));
        }
    }

    private static void set(FieldVector vector, int row, Object value)
    {
        if (value == null) {
            vector.setNull(row);
        }
        else if (vector instanceof VarCharVector varchar) {
            varchar.setSafe(row, ((String) value).getBytes(UTF_8));
        }
        else if (vector instanceof VarBinaryVector binary) {
            binary.setSafe(row, (byte[]) value);
        }
        else if (vector instanceof IntVector integer) {
            integer.setSafe(row, (Integer) value);
        }
        else if (vector instanceof BitVector bit) {
            bit.setSafe(row, (Boolean) value ? 1 : 0);
        }
        else if (vector instanceof ListVector list && list.getDataVector() instanceof VarCharVector items) {
            List<?> strings = (List<?>) value;
            int offset = list.startNewValue(row);
            for (int item = 0; item < strings.size(); item++) {
                items.setSafe(offset + item, ((String) strings.get(item)).getBytes(UTF_8));
            }
            list.endValue(row, strings.size());
        }
        else {
            throw new IllegalArgumentException("Unsupported metadata column " + vector.getField());
        }
    }
}
