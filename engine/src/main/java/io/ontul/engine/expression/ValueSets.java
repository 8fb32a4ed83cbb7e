package io.ontul.engine.expression;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.Sarg;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

import com.google.common.collect.Range;

/**
 * The values of a large IN list in the form generated code tests membership in: a sorted
 * {@code long[]} (integers, decimals as unscaled longs, dates, times, timestamps, intervals), a
 * sorted {@code double[]}, or a set of strings. Values that cannot equal any value of the tested
 * expression's type (2.5 against an INTEGER column) are left out, exactly as the comparison
 * {@code x = 2.5} would never hold.
 */
public final class ValueSets
{
    private ValueSets() {}

    /** Strings compared as CHAR: trailing spaces do not count. */
    public record PaddedStrings(Set<String> values)
    {
        public boolean contains(String value)
        {
            return values.contains(Functions.stripTrailingSpaces(value));
        }
    }

    /**
     * The points of {@code points} as values of {@code operandType}, or null when their kind is not
     * one this class handles (the caller then expands the IN list into comparisons).
     */
    static Object of(Sarg<?> points, RelDataType operandType, RelDataType literalType)
    {
        JavaKind kind = JavaKind.of(operandType);
        try {
            return switch (kind) {
                case INT, LONG -> {
                    long[] values = new long[points.pointCount];
                    int count = 0;
                    for (Range<?> range : points.rangeSet.asRanges()) {
                        Long value = asLong(range.lowerEndpoint(), operandType);
                        if (value != null) {
                            values[count++] = value;
                        }
                    }
                    long[] sorted = Arrays.copyOf(values, count);
                    Arrays.sort(sorted);
                    yield sorted;
                }
                case DOUBLE -> {
                    double[] values = new double[points.pointCount];
                    int count = 0;
                    for (Range<?> range : points.rangeSet.asRanges()) {
                        if (!(range.lowerEndpoint() instanceof Number number)) {
                            yield null;
                        }
                        // + 0.0 turns -0.0 into 0.0: SQL equality does not tell them apart
                        values[count++] = number.doubleValue() + 0.0;
                    }
                    double[] sorted = Arrays.copyOf(values, count);
                    Arrays.sort(sorted);
                    yield sorted;
                }
                case STRING -> {
                    boolean padded = operandType.getSqlTypeName() == SqlTypeName.CHAR;
                    Set<String> values = new HashSet<>();
                    for (Range<?> range : points.rangeSet.asRanges()) {
                        if (range.lowerEndpoint() instanceof java.util.UUID uuid) {
                            values.add(uuid.toString());
                            continue;
                        }
                        if (!(range.lowerEndpoint() instanceof NlsString string)) {
                            yield null;
                        }
                        values.add(padded ? Functions.stripTrailingSpaces(string.getValue()) : string.getValue());
                    }
                    yield padded ? new PaddedStrings(values) : values;
                }
                default -> null;
            };
        }
        catch (UnsupportedOperationException e) {
            return null;
        }
    }

    /** The Java expression testing whether {@code value} is in the set held by {@code field}. */
    static String containsCode(Object set, String field, String value)
    {
        String self = "io.ontul.engine.expression.ValueSets.";
        if (set instanceof long[]) {
            return self + "contains(" + field + ", (long) " + value + ")";
        }
        if (set instanceof double[]) {
            return self + "contains(" + field + ", (double) " + value + ")";
        }
        return field + ".contains(" + value + ")";
    }

    /** Generated code's field type for {@code set}. */
    static String javaType(Object set)
    {
        if (set instanceof long[]) {
            return "long[]";
        }
        if (set instanceof double[]) {
            return "double[]";
        }
        return set instanceof PaddedStrings ? PaddedStrings.class.getCanonicalName() : "java.util.Set";
    }

    public static boolean contains(long[] sorted, long value)
    {
        return Arrays.binarySearch(sorted, value) >= 0;
    }

    public static boolean contains(double[] sorted, double value)
    {
        return Arrays.binarySearch(sorted, value + 0.0) >= 0;
    }

    /** A point as the long generated code holds for {@code type}; null when no value of the type equals it. */
    private static Long asLong(Object point, RelDataType type)
    {
        SqlTypeName name = type.getSqlTypeName();
        if (point instanceof BigDecimal decimal) {
            try {
                if (name == SqlTypeName.DECIMAL) {
                    return decimal.setScale(type.getScale()).unscaledValue().longValueExact();
                }
                long value = decimal.longValueExact();
                return switch (name) {
                    case TINYINT -> value == (byte) value ? value : null;
                    case SMALLINT -> value == (short) value ? value : null;
                    case INTEGER -> value == (int) value ? value : null;
                    case BIGINT -> value;
                    default -> {
                        if (name.getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_DAY_TIME
                                || name.getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.INTERVAL_YEAR_MONTH) {
                            yield value;
                        }
                        throw new UnsupportedOperationException();
                    }
                };
            }
            catch (ArithmeticException e) {
                // a fraction, or beyond the type's range: never equal
                return null;
            }
        }
        if (point instanceof DateString date && name == SqlTypeName.DATE) {
            return (long) date.getDaysSinceEpoch();
        }
        if (point instanceof TimeString time && name == SqlTypeName.TIME) {
            return (long) time.getMillisOfDay();
        }
        if (point instanceof TimestampString timestamp && name == SqlTypeName.TIMESTAMP) {
            return type.getPrecision() > 3 ? Functions.parseTimestamp(timestamp.toString(), true) : timestamp.getMillisSinceEpoch();
        }
        throw new UnsupportedOperationException();
    }
}
