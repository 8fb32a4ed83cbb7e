package io.ontul.catalog.iceberg.metadata;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Renders a value of a metadata table, in Iceberg's internal representation, as text: structs as
 * {@code {name=value, ...}}, maps as {@code {key=value, ...}}, lists as {@code [a, b]}, binary as
 * {@code 0x...} hex, temporal values in ISO-8601.
 */
final class MetadataText
{
    private static final HexFormat HEX = HexFormat.of();

    private MetadataText() {}

    static String render(Object value, Type type)
    {
        StringBuilder text = new StringBuilder();
        append(text, value, type);
        return text.toString();
    }

    private static void append(StringBuilder text, Object value, Type type)
    {
        if (value == null) {
            text.append("null");
            return;
        }
        switch (type.typeId()) {
            case STRUCT -> {
                Types.StructType struct = type.asStructType();
                StructLike row = (StructLike) value;
                text.append('{');
                List<Types.NestedField> fields = struct.fields();
                for (int i = 0; i < fields.size(); i++) {
                    if (i > 0) {
                        text.append(", ");
                    }
                    text.append(fields.get(i).name()).append('=');
                    append(text, row.get(i, Object.class), fields.get(i).type());
                }
                text.append('}');
            }
            case MAP -> {
                Types.MapType map = type.asMapType();
                text.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                    if (!first) {
                        text.append(", ");
                    }
                    first = false;
                    append(text, entry.getKey(), map.keyType());
                    text.append('=');
                    append(text, entry.getValue(), map.valueType());
                }
                text.append('}');
            }
            case LIST -> {
                Type element = type.asListType().elementType();
                text.append('[');
                boolean first = true;
                for (Object item : (Iterable<?>) value) {
                    if (!first) {
                        text.append(", ");
                    }
                    first = false;
                    append(text, item, element);
                }
                text.append(']');
            }
            case BINARY, FIXED -> {
                byte[] bytes;
                if (value instanceof ByteBuffer buffer) {
                    bytes = new byte[buffer.remaining()];
                    buffer.duplicate().get(bytes);
                }
                else {
                    bytes = (byte[]) value;
                }
                text.append("0x").append(HEX.formatHex(bytes));
            }
            case DATE -> text.append(LocalDate.ofEpochDay(((Number) value).longValue()));
            case TIME -> text.append(LocalTime.ofNanoOfDay(((Number) value).longValue() * 1000));
            case TIMESTAMP -> {
                Instant instant = Instant.EPOCH.plus(((Number) value).longValue(), ChronoUnit.MICROS);
                text.append(((Types.TimestampType) type).shouldAdjustToUTC() ? instant.toString() : instant.atOffset(ZoneOffset.UTC).toLocalDateTime().toString());
            }
            default -> text.append(value);
        }
    }
}
