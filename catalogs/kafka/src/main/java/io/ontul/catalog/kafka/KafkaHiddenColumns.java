package io.ontul.catalog.kafka;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

import io.ontul.spi.TableHandle;

/**
 * The columns every Kafka table has after its declared ones, hidden from {@code SELECT *}: the
 * record's partition, offset and timestamp (the producer's or the broker's, as the topic says;
 * epoch milliseconds shown as a UTC date-time).
 */
public final class KafkaHiddenColumns
{
    public static final String PARTITION = "_partition";
    public static final String OFFSET = "_offset";
    public static final String TIMESTAMP = "_timestamp";

    public static final Set<String> NAMES = Set.of(PARTITION, OFFSET, TIMESTAMP);

    private static final Map<String, String> HIDDEN = Map.of(TableHandle.HIDDEN_COLUMN, "true");

    // nullable although never null: an INSERT hands hidden columns to the sink as NULL
    public static final List<Field> FIELDS = List.of(
            new Field(PARTITION, new FieldType(true, new ArrowType.Int(32, true), null, HIDDEN), null),
            new Field(OFFSET, new FieldType(true, new ArrowType.Int(64, true), null, HIDDEN), null),
            new Field(TIMESTAMP, new FieldType(true, new ArrowType.Timestamp(TimeUnit.MILLISECOND, null), null, HIDDEN), null));

    private KafkaHiddenColumns() {}

    public static boolean isHidden(String name)
    {
        return NAMES.contains(name);
    }
}
