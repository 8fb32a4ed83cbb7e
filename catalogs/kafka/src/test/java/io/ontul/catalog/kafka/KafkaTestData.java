package io.ontul.catalog.kafka;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The events the Kafka tests produce and the values they must read back: event i goes to
 * partition i % partitions with record timestamp {@link #recordTimestamp}(i) and event time
 * {@link #eventTime}(i), written as ISO text or, for every tenth event, as epoch milliseconds.
 */
final class KafkaTestData
{
    static final LocalDateTime BASE_TIME = LocalDateTime.of(2026, 1, 1, 0, 0);
    static final long BASE_MILLIS = BASE_TIME.toEpochSecond(ZoneOffset.UTC) * 1000;

    static final Schema EVENT_COLUMNS = new Schema(List.of(
            column("event_id", new ArrowType.Int(64, true)),
            column("category", ArrowType.Utf8.INSTANCE),
            column("amount", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
            column("event_time", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null))));

    private KafkaTestData() {}

    static List<ProducerRecord<String, String>> events(String topic, int count, int partitions)
    {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(new ProducerRecord<>(topic, i % partitions, recordTimestamp(i), "key-" + i, eventJson(i)));
        }
        return records;
    }

    static String eventJson(long i)
    {
        String eventTime = i % 10 == 0
                ? String.valueOf(eventTime(i).toEpochSecond(ZoneOffset.UTC) * 1000 + eventTime(i).getNano() / 1_000_000)
                : "\"" + eventTime(i) + "\"";
        return "{\"event_id\": " + i + ", \"category\": \"" + category(i) + "\", \"amount\": " + amount(i) + ", \"event_time\": " + eventTime + "}";
    }

    static String category(long i)
    {
        return "c" + (i % 5);
    }

    static double amount(long i)
    {
        return i * 0.5;
    }

    /** Distinct milliseconds, so no fraction is ever dropped by the ISO text. */
    static LocalDateTime eventTime(long i)
    {
        return BASE_TIME.plusSeconds(i).plusNanos((i % 1000 + 1) * 1_000_000);
    }

    static long recordTimestamp(long i)
    {
        return BASE_MILLIS + i * 1000;
    }

    static Field column(String name, ArrowType type)
    {
        return new Field(name, FieldType.nullable(type), null);
    }

    /** The rows of a batch as plain Java values (text as String, timestamps as LocalDateTime). */
    static List<List<Object>> rows(VectorSchemaRoot batch)
    {
        List<List<Object>> rows = new ArrayList<>();
        for (int row = 0; row < batch.getRowCount(); row++) {
            List<Object> values = new ArrayList<>();
            for (FieldVector vector : batch.getFieldVectors()) {
                Object value = vector.getObject(row);
                values.add(value instanceof Text text ? text.toString() : value);
            }
            rows.add(values);
        }
        return rows;
    }
}
