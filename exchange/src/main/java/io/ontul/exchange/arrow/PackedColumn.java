package io.ontul.exchange.arrow;

import java.util.Optional;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * How {@link PackedBatchWriter} lays out one column, by its Arrow type. Every column starts with
 * its null count and, if there are nulls, its validity bitmap; then:
 * <ul>
 * <li>{@link Kind#INTEGER} (integers, dates, times, timestamps, durations of {@code width}
 * bytes): the values as offsets from the batch's smallest, each in the fewest of 0, 1, 2, 4 or 8
 * bytes that hold the largest offset (frame of reference);</li>
 * <li>{@link Kind#DECIMAL} (128-bit decimals): as INTEGER over the low 64 bits when every value
 * fits in 64 bits, else the 16-byte values as they are;</li>
 * <li>{@link Kind#RAW} (floating point, fixed-size binary): the values as they are;</li>
 * <li>{@link Kind#BIT} (booleans): the value bitmap;</li>
 * <li>{@link Kind#VARIABLE} (strings, binary): the value lengths as INTEGER, then the bytes.</li>
 * </ul>
 *
 * @param width bytes per value in Arrow's layout (0 for BIT and VARIABLE)
 */
record PackedColumn(Kind kind, int width)
{
    /** Rows of the largest batch whose scratch arrays a thread keeps between batches (512 KiB of longs). */
    static final int CACHED_ROWS = 64 * 1024;

    enum Kind
    {
        INTEGER, DECIMAL, RAW, BIT, VARIABLE
    }

    /** Whether every column of {@code schema} is flat and of a type listed above. */
    static boolean supports(Schema schema)
    {
        return schema.getFields().stream().allMatch(field -> of(field).isPresent());
    }

    static PackedColumn forField(Field field)
    {
        return of(field).orElseThrow(() -> new IllegalArgumentException("column " + field.getName() + " of type " + field.getType() + " cannot be packed"));
    }

    static Optional<PackedColumn> of(Field field)
    {
        if (!field.getChildren().isEmpty() || field.getDictionary() != null) {
            return Optional.empty();
        }
        ArrowType type = field.getType();
        PackedColumn column = switch (type.getTypeID()) {
            case Int -> new PackedColumn(Kind.INTEGER, ((ArrowType.Int) type).getBitWidth() / 8);
            case Date -> new PackedColumn(Kind.INTEGER, ((ArrowType.Date) type).getUnit() == DateUnit.DAY ? 4 : 8);
            case Time -> new PackedColumn(Kind.INTEGER, ((ArrowType.Time) type).getBitWidth() / 8);
            case Timestamp, Duration -> new PackedColumn(Kind.INTEGER, 8);
            case Decimal -> ((ArrowType.Decimal) type).getBitWidth() == 128 ? new PackedColumn(Kind.DECIMAL, 16) : null;
            case FloatingPoint -> new PackedColumn(Kind.RAW, switch (((ArrowType.FloatingPoint) type).getPrecision()) {
                case HALF -> 2;
                case SINGLE -> 4;
                case DOUBLE -> 8;
            });
            case FixedSizeBinary -> new PackedColumn(Kind.RAW, ((ArrowType.FixedSizeBinary) type).getByteWidth());
            case Bool -> new PackedColumn(Kind.BIT, 0);
            case Utf8, Binary -> new PackedColumn(Kind.VARIABLE, 0);
            default -> null;
        };
        return Optional.ofNullable(column);
    }
}
