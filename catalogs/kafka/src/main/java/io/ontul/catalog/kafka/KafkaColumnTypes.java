package io.ontul.catalog.kafka;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The column types a Kafka table may declare, and their SQL names as stored in table definitions:
 * BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, DECIMAL(p,s), VARCHAR, DATE, TIME(3),
 * TIMESTAMP(3) and TIMESTAMP(6) (no time zone).
 */
public final class KafkaColumnTypes
{
    private static final Pattern DECIMAL = Pattern.compile("DECIMAL\\((\\d+),(\\d+)\\)");

    private KafkaColumnTypes() {}

    /** The SQL name of a supported type, or empty if a Kafka table cannot hold it. */
    public static Optional<String> sqlName(ArrowType type)
    {
        return Optional.ofNullable(name(type));
    }

    private static String name(ArrowType type)
    {
        switch (type.getTypeID()) {
            case Bool:
                return "BOOLEAN";
            case Int:
                ArrowType.Int integer = (ArrowType.Int) type;
                if (!integer.getIsSigned()) {
                    return null;
                }
                return switch (integer.getBitWidth()) {
                    case 8 -> "TINYINT";
                    case 16 -> "SMALLINT";
                    case 32 -> "INTEGER";
                    case 64 -> "BIGINT";
                    default -> null;
                };
            case FloatingPoint:
                FloatingPointPrecision precision = ((ArrowType.FloatingPoint) type).getPrecision();
                return precision == FloatingPointPrecision.SINGLE ? "REAL" : precision == FloatingPointPrecision.DOUBLE ? "DOUBLE" : null;
            case Decimal:
                ArrowType.Decimal decimal = (ArrowType.Decimal) type;
                return decimal.getBitWidth() == 128 ? "DECIMAL(" + decimal.getPrecision() + "," + decimal.getScale() + ")" : null;
            case Utf8:
                return "VARCHAR";
            case Date:
                return ((ArrowType.Date) type).getUnit() == DateUnit.DAY ? "DATE" : null;
            case Time:
                ArrowType.Time time = (ArrowType.Time) type;
                return time.getUnit() == TimeUnit.MILLISECOND && time.getBitWidth() == 32 ? "TIME(3)" : null;
            case Timestamp:
                ArrowType.Timestamp timestamp = (ArrowType.Timestamp) type;
                if (timestamp.getTimezone() != null) {
                    return null;
                }
                return timestamp.getUnit() == TimeUnit.MILLISECOND ? "TIMESTAMP(3)" : timestamp.getUnit() == TimeUnit.MICROSECOND ? "TIMESTAMP(6)" : null;
            default:
                return null;
        }
    }

    /** The Arrow type of a stored SQL name. */
    public static ArrowType arrowType(String sqlName)
    {
        switch (sqlName) {
            case "BOOLEAN":
                return ArrowType.Bool.INSTANCE;
            case "TINYINT":
                return new ArrowType.Int(8, true);
            case "SMALLINT":
                return new ArrowType.Int(16, true);
            case "INTEGER":
                return new ArrowType.Int(32, true);
            case "BIGINT":
                return new ArrowType.Int(64, true);
            case "REAL":
                return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case "DOUBLE":
                return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case "VARCHAR":
                return ArrowType.Utf8.INSTANCE;
            case "DATE":
                return new ArrowType.Date(DateUnit.DAY);
            case "TIME(3)":
                return new ArrowType.Time(TimeUnit.MILLISECOND, 32);
            case "TIMESTAMP(3)":
                return new ArrowType.Timestamp(TimeUnit.MILLISECOND, null);
            case "TIMESTAMP(6)":
                return new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
            default:
                Matcher matcher = DECIMAL.matcher(sqlName);
                if (matcher.matches()) {
                    return new ArrowType.Decimal(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)), 128);
                }
                throw new IllegalArgumentException("Unknown stored column type: " + sqlName);
        }
    }

    public static boolean isTimestamp(ArrowType type)
    {
        return type instanceof ArrowType.Timestamp timestamp && timestamp.getTimezone() == null;
    }
}
