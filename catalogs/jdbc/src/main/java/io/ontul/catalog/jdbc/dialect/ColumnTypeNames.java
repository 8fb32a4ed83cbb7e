package io.ontul.catalog.jdbc.dialect;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.catalog.jdbc.type.ColumnMapping;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * A dialect's names of the column types CREATE TABLE uses for the engine's types. Text with
 * field metadata {@code ontul.type = CHAR(n) | VARCHAR(n)} keeps its declared length; text marked
 * {@code UUID} is {@code uuid}, the dialect's UUID type (or text that holds one). A timestamp
 * with a time zone (TIMESTAMP WITH TIME ZONE, an instant) is the timestamp type followed by
 * {@code withTimeZone}, or not storable when the dialect has none ({@code null}).
 */
record ColumnTypeNames(String bool, String tinyint, String smallint, String integer, String bigint, String real, String doublePrecision,
        String text, String date, String time, String timestampMillis, String timestampMicros, String binary, String uuid,
        String withTimeZone)
{
    private static final Pattern DECLARED_TEXT = Pattern.compile("(CHAR|VARCHAR)\\((\\d+)\\)");

    ColumnTypeNames
    {
        requireNonNull(bool, "bool is null");
        requireNonNull(text, "text is null");
    }

    String columnType(String database, Field field)
    {
        ArrowType type = field.getType();
        return switch (type.getTypeID()) {
            case Bool -> bool;
            case Int -> switch (((ArrowType.Int) type).getBitWidth()) {
                case 8 -> tinyint;
                case 16 -> smallint;
                case 32 -> integer;
                case 64 -> bigint;
                default -> throw unsupported(database, field);
            };
            case FloatingPoint -> switch (((ArrowType.FloatingPoint) type).getPrecision()) {
                case SINGLE -> real;
                case DOUBLE -> doublePrecision;
                default -> throw unsupported(database, field);
            };
            case Decimal -> "decimal(" + ((ArrowType.Decimal) type).getPrecision() + ", " + ((ArrowType.Decimal) type).getScale() + ")";
            case Binary, LargeBinary -> binary;
            case Utf8, LargeUtf8 -> {
                if (io.ontul.spi.TableHandle.isUuid(field)) {
                    yield uuid;
                }
                String declared = field.getMetadata() == null ? null : field.getMetadata().get(ColumnMapping.TYPE_METADATA);
                Matcher matcher = declared == null ? null : DECLARED_TEXT.matcher(declared);
                yield matcher != null && matcher.matches() ? matcher.group(1).toLowerCase(Locale.ROOT) + "(" + matcher.group(2) + ")" : text;
            }
            case Date -> date;
            case Time -> time;
            case Timestamp -> {
                ArrowType.Timestamp timestamp = (ArrowType.Timestamp) type;
                if (timestamp.getTimezone() != null && withTimeZone == null) {
                    throw unsupported(database, field);
                }
                String name = timestamp.getUnit() == TimeUnit.MILLISECOND || timestamp.getUnit() == TimeUnit.SECOND ? timestampMillis : timestampMicros;
                yield timestamp.getTimezone() == null ? name : name + withTimeZone;
            }
            default -> throw unsupported(database, field);
        };
    }

    private static OntulException unsupported(String database, Field field)
    {
        return OntulException.userError(ErrorCode.NOT_SUPPORTED, "Column '%s' has type %s, which cannot be stored in %s", field.getName(), field.getType(), database);
    }
}
