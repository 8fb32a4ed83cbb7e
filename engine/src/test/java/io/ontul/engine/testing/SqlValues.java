package io.ontul.engine.testing;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Comparator;
import java.util.List;

/**
 * Equality and a total order for the plain values of {@link ResultRows}, across engines that
 * type the same result differently.
 * <ul>
 * <li>Integers and decimals match when equal in value ({@code 5}, {@code 5.00}, a HUGEINT 5):
 * exact arithmetic must give exact results.</li>
 * <li>A floating-point value matches a number within a relative tolerance of 1e-9 (absolute
 * 1e-12 near zero); when the other side is a decimal of scale s, also within half a unit of its
 * last place, so a DECIMAL quotient rounded to its scale matches the DOUBLE quotient.</li>
 * <li>Everything else (text, dates, timestamps, booleans) matches by {@code equals}.</li>
 * </ul>
 */
public final class SqlValues
{
    private static final double RELATIVE_TOLERANCE = 1e-9;
    private static final double ABSOLUTE_TOLERANCE = 1e-12;

    /** Orders rows column by column: NULL first, numbers by value, then by natural order. */
    public static final Comparator<List<Object>> ROW_ORDER = SqlValues::compareRows;

    private SqlValues() {}

    public static boolean rowsMatch(List<Object> expected, List<Object> actual)
    {
        if (expected.size() != actual.size()) {
            return false;
        }
        for (int column = 0; column < expected.size(); column++) {
            if (!matches(expected.get(column), actual.get(column))) {
                return false;
            }
        }
        return true;
    }

    public static boolean matches(Object expected, Object actual)
    {
        if (expected == null || actual == null) {
            return expected == null && actual == null;
        }
        if (expected instanceof Number && actual instanceof Number) {
            return numbersMatch((Number) expected, (Number) actual);
        }
        return expected.equals(actual);
    }

    private static boolean numbersMatch(Number expected, Number actual)
    {
        if (isExact(expected) && isExact(actual)) {
            return exact(expected).compareTo(exact(actual)) == 0;
        }
        double left = expected.doubleValue();
        double right = actual.doubleValue();
        if (Double.isNaN(left) || Double.isNaN(right) || Double.isInfinite(left) || Double.isInfinite(right)) {
            return Double.compare(left, right) == 0;
        }
        double tolerance = Math.max(ABSOLUTE_TOLERANCE, RELATIVE_TOLERANCE * Math.max(Math.abs(left), Math.abs(right)));
        tolerance = Math.max(tolerance, halfUnitInLastPlace(expected));
        tolerance = Math.max(tolerance, halfUnitInLastPlace(actual));
        return Math.abs(left - right) <= tolerance;
    }

    private static double halfUnitInLastPlace(Number number)
    {
        if (number instanceof BigDecimal) {
            // a little over half a unit, so a value exactly halfway still matches after rounding
            return BigDecimal.ONE.movePointLeft(((BigDecimal) number).scale()).doubleValue() * 0.5 * (1 + RELATIVE_TOLERANCE);
        }
        return 0;
    }

    private static boolean isExact(Number number)
    {
        return number instanceof BigDecimal
                || number instanceof BigInteger
                || number instanceof Long
                || number instanceof Integer
                || number instanceof Short
                || number instanceof Byte;
    }

    private static BigDecimal exact(Number number)
    {
        if (number instanceof BigDecimal) {
            return (BigDecimal) number;
        }
        if (number instanceof BigInteger) {
            return new BigDecimal((BigInteger) number);
        }
        return BigDecimal.valueOf(number.longValue());
    }

    public static int compareRows(List<Object> left, List<Object> right)
    {
        for (int column = 0; column < Math.min(left.size(), right.size()); column++) {
            int comparison = compareValues(left.get(column), right.get(column));
            if (comparison != 0) {
                return comparison;
            }
        }
        return Integer.compare(left.size(), right.size());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static int compareValues(Object left, Object right)
    {
        if (left == null || right == null) {
            return left == null ? (right == null ? 0 : -1) : 1;
        }
        if (left instanceof Number && right instanceof Number) {
            return compareNumbers((Number) left, (Number) right);
        }
        if (left.getClass() == right.getClass() && left instanceof Comparable) {
            return ((Comparable) left).compareTo(right);
        }
        return left.getClass().getName().compareTo(right.getClass().getName());
    }

    private static int compareNumbers(Number left, Number right)
    {
        if (isExact(left) && isExact(right)) {
            return exact(left).compareTo(exact(right));
        }
        return Double.compare(left.doubleValue(), right.doubleValue());
    }
}
