package io.ontul.catalog.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.Optional;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.catalog.kafka.encoder.JsonRowEncoder;

/**
 * Rows as Kafka record keys and values, as the table's format says: a JSON object per row with
 * the {@code key.column} value as the key (JSON tables), or the {@code key} and {@code value}
 * columns as UTF-8 bytes (raw tables).
 */
final class KafkaRecordEncoder
{
    /** Receives one record; a null key or value is a record without one. */
    interface RecordConsumer
    {
        void accept(byte[] key, byte[] value);
    }

    private KafkaRecordEncoder() {}

    static void encode(KafkaTableDefinition table, VectorSchemaRoot batch, RecordConsumer consumer)
    {
        int rowCount = batch.getRowCount();
        if (table.format() == KafkaFormat.RAW) {
            FieldVector keys = batch.getVector("key");
            FieldVector values = batch.getVector("value");
            for (int row = 0; row < rowCount; row++) {
                consumer.accept(bytes(keys, row), bytes(values, row));
            }
            return;
        }
        JsonRowEncoder encoder = new JsonRowEncoder(table.columns());
        encoder.bind(batch);
        Optional<String> keyColumn = table.keyColumn();
        FieldVector keys = keyColumn.map(batch::getVector).orElse(null);
        for (int row = 0; row < rowCount; row++) {
            consumer.accept(bytes(keys, row), encoder.encode(row));
        }
    }

    private static byte[] bytes(FieldVector vector, int row)
    {
        if (vector == null || vector.isNull(row)) {
            return null;
        }
        return vector instanceof VarCharVector strings ? strings.get(row) : vector.getObject(row).toString().getBytes(UTF_8);
    }
}
