package io.ontul.catalog.jdbc.type;

import java.sql.Types;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The mapping of standard JDBC types ({@link Types}) to the engine's column types, which dialects
 * refine for their own types.
 * <p>
 * Decimals keep their precision and scale up to 38 digits. A decimal declared without a
 * precision (PostgreSQL's {@code numeric}) becomes {@code DECIMAL(38,10)}: values are rounded half
 * up to 10 fractional digits and a value with more than 28 integer digits fails the query.
 * Timestamps with at most 3 fractional digits become millisecond timestamps, others microsecond.
 */
public final class StandardColumnMappings
{
    public static final int MAX_DECIMAL_PRECISION = 38;
    public static final int UNBOUNDED_DECIMAL_SCALE = 10;
    private static final int MAX_DECLARED_TEXT_LENGTH = 1 << 20;

    private StandardColumnMappings() {}

    public static Optional<ColumnMapping> forColumn(RemoteColumn column)
    {
        return Optional.ofNullable(switch (column.jdbcType()) {
            case Types.BOOLEAN -> bool();
            case Types.BIT -> column.columnSize() <= 1 ? bool() : null;
            case Types.TINYINT -> new ColumnMapping(new ArrowType.Int(8, true), ColumnReaders.TINYINT, PredicatePushdown.comparisons());
            case Types.SMALLINT -> smallint();
            case Types.INTEGER -> integer();
            case Types.BIGINT -> bigint();
            case Types.REAL -> new ColumnMapping(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE), ColumnReaders.REAL, PredicatePushdown.inexactComparisons());
            case Types.FLOAT, Types.DOUBLE -> new ColumnMapping(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), ColumnReaders.DOUBLE, PredicatePushdown.inexactComparisons());
            case Types.NUMERIC, Types.DECIMAL -> decimal(column.columnSize(), column.decimalDigits());
            case Types.CHAR, Types.NCHAR -> text(column.columnSize(), "CHAR");
            case Types.VARCHAR, Types.NVARCHAR, Types.LONGVARCHAR, Types.LONGNVARCHAR -> text(column.columnSize(), "VARCHAR");
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> bytes();
            case Types.DATE -> new ColumnMapping(new ArrowType.Date(DateUnit.DAY), ColumnReaders.DATE, PredicatePushdown.comparisons());
            case Types.TIME -> time();
            case Types.TIMESTAMP -> timestamp(column.decimalDigits());
            case Types.TIMESTAMP_WITH_TIMEZONE -> timestampWithTimeZone(column.decimalDigits());
            default -> null;
        });
    }

    public static ColumnMapping bool()
    {
        return new ColumnMapping(ArrowType.Bool.INSTANCE, ColumnReaders.BOOLEAN, PredicatePushdown.equality());
    }

    public static ColumnMapping smallint()
    {
        return new ColumnMapping(new ArrowType.Int(16, true), ColumnReaders.SMALLINT, PredicatePushdown.comparisons());
    }

    public static ColumnMapping integer()
    {
        return new ColumnMapping(new ArrowType.Int(32, true), ColumnReaders.INTEGER, PredicatePushdown.comparisons());
    }

    public static ColumnMapping bigint()
    {
        return new ColumnMapping(new ArrowType.Int(64, true), ColumnReaders.BIGINT, PredicatePushdown.comparisons());
    }

    /**
     * @param precision the declared precision; 0 or less, or more than 1000, for none
     * @param scale the declared scale
     */
    public static ColumnMapping decimal(int precision, int scale)
    {
        if (precision <= 0 || precision > 1000) {
            return new ColumnMapping(new ArrowType.Decimal(MAX_DECIMAL_PRECISION, UNBOUNDED_DECIMAL_SCALE, 128),
                    ColumnReaders.decimal(MAX_DECIMAL_PRECISION, UNBOUNDED_DECIMAL_SCALE, true),
                    // the engine sees rounded values: comparing the database's exact ones could drop rows
                    PredicatePushdown.nullChecksOnly());
        }
        if (scale < 0) {
            int digits = Math.min(MAX_DECIMAL_PRECISION, precision - scale);
            return new ColumnMapping(new ArrowType.Decimal(digits, 0, 128), ColumnReaders.decimal(digits, 0, false), PredicatePushdown.comparisons());
        }
        int effectiveScale = Math.min(scale, MAX_DECIMAL_PRECISION);
        int effectivePrecision = Math.max(effectiveScale, Math.min(precision, MAX_DECIMAL_PRECISION));
        return new ColumnMapping(new ArrowType.Decimal(effectivePrecision, effectiveScale, 128),
                ColumnReaders.decimal(effectivePrecision, effectiveScale, false), PredicatePushdown.comparisons());
    }

    /**
     * Text; a declared length becomes field metadata {@code ontul.type = VARCHAR(n)} or
     * {@code CHAR(n)}. Only null checks are pushed: dialects that know their collations allow more.
     */
    public static ColumnMapping text(int length, String kind)
    {
        ColumnMapping mapping = new ColumnMapping(ArrowType.Utf8.INSTANCE, ColumnReaders.TEXT, PredicatePushdown.nullChecksOnly());
        if (length > 0 && length < MAX_DECLARED_TEXT_LENGTH) {
            mapping = mapping.withMetadata(Map.of(ColumnMapping.TYPE_METADATA, kind + "(" + length + ")"));
        }
        return mapping;
    }

    /** Unbounded text. */
    public static ColumnMapping text()
    {
        return new ColumnMapping(ArrowType.Utf8.INSTANCE, ColumnReaders.TEXT, PredicatePushdown.nullChecksOnly());
    }

    /** VARBINARY; only null checks are sent to the database (literals of bytes have no common SQL). */
    public static ColumnMapping bytes()
    {
        return new ColumnMapping(ArrowType.Binary.INSTANCE, ColumnReaders.BYTES, PredicatePushdown.nullChecksOnly());
    }

    /** A UUID column read as its canonical text and written as untyped text the database converts. */
    public static ColumnMapping uuid()
    {
        return text().withMetadata(Map.of(ColumnMapping.TYPE_METADATA, io.ontul.spi.TableHandle.UUID_TYPE)).withBinder(ValueBinders.UNTYPED_TEXT);
    }

    /** TIME as milliseconds; finer digits are cut, so comparisons are not pushed. */
    public static ColumnMapping time()
    {
        return new ColumnMapping(new ArrowType.Time(TimeUnit.MILLISECOND, 32), ColumnReaders.TIME_MILLIS, PredicatePushdown.nullChecksOnly());
    }

    /** @param fractionalDigits the declared fractional second digits, -1 if unknown */
    public static ColumnMapping timestamp(int fractionalDigits)
    {
        if (fractionalDigits >= 0 && fractionalDigits <= 3) {
            return new ColumnMapping(new ArrowType.Timestamp(TimeUnit.MILLISECOND, null), ColumnReaders.TIMESTAMP_MILLIS, PredicatePushdown.comparisons());
        }
        return new ColumnMapping(new ArrowType.Timestamp(TimeUnit.MICROSECOND, null), ColumnReaders.TIMESTAMP_MICROS,
                fractionalDigits > 6 ? PredicatePushdown.nullChecksOnly() : PredicatePushdown.comparisons());
    }

    /**
     * A PostgreSQL array of {@code element}'s values (an ARRAY of the element's type), bound as an
     * array of {@code elementTypeName}. Only null checks are pushed: the engine compares arrays
     * element by element with its own rules, and its arrays do not keep PostgreSQL's lower bounds.
     */
    public static ColumnMapping array(ColumnMapping element, String elementTypeName)
    {
        if (element.element().isPresent()) {
            throw new IllegalArgumentException("arrays of arrays are not mapped");
        }
        boolean withTimeZone = element.type() instanceof ArrowType.Timestamp timestamp && timestamp.getTimezone() != null;
        return new ColumnMapping(ArrowType.List.INSTANCE, Map.of(), Optional.of(element), ColumnReaders.array(element.reader()),
                ValueBinders.array(elementTypeName, withTimeZone), PredicatePushdown.nullChecksOnly());
    }

    /** A timestamp with a time zone: the engine's TIMESTAMP WITH TIME ZONE, the instant (held as UTC). */
    public static ColumnMapping timestampWithTimeZone(int fractionalDigits)
    {
        boolean millis = fractionalDigits >= 0 && fractionalDigits <= 3;
        return new ColumnMapping(new ArrowType.Timestamp(millis ? TimeUnit.MILLISECOND : TimeUnit.MICROSECOND, "UTC"),
                millis ? ColumnReaders.TIMESTAMP_WITH_ZONE_AS_UTC_MILLIS : ColumnReaders.TIMESTAMP_WITH_ZONE_AS_UTC_MICROS,
                fractionalDigits > 6 ? PredicatePushdown.nullChecksOnly() : PredicatePushdown.comparisons())
                .withBinder(ValueBinders.TIMESTAMP_AS_UTC);
    }
}
