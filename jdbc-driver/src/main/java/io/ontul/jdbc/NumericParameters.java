package io.ontul.jdbc;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Binds numbers to numeric parameters as mainstream drivers do (PostgreSQL's converts): numeric
 * text is parsed ({@code setString(1, "3")} for a BIGINT), a value is checked against the
 * parameter's type before it is bound (a BigDecimal of 1E+50 for a BIGINT is refused, SQLState
 * 22003, instead of wrapping around in Arrow's vector), a fraction for an integer is refused,
 * and a DECIMAL takes the parameter's scale (rounded half up). Text that is not a number is
 * refused with SQLState 22018. The parameter type is the Arrow type the server announced
 * ({@code Int(64, true)}, {@code Decimal(15, 2, 128)}, {@code FloatingPoint(DOUBLE)}).
 */
final class NumericParameters
{
    private static final Pattern INT = Pattern.compile("Int\\((\\d+), *(true|false)\\)");
    private static final Pattern DECIMAL = Pattern.compile("Decimal\\((\\d+), *(-?\\d+)(, *\\d+)?\\)");
    private static final Pattern FLOATING = Pattern.compile("FloatingPoint\\((HALF|SINGLE|DOUBLE)\\)");

    private NumericParameters() {}

    /**
     * Binds {@code value}, given with {@code method} for parameter {@code index}, if the parameter is
     * numeric and the value a number or text; returns false to leave the call to Arrow.
     */
    static boolean bind(PreparedStatement statement, String parameterType, int index, String method, Object value)
            throws SQLException
    {
        if (parameterType == null || value == null || !(value instanceof Number || value instanceof String)) {
            return false;
        }
        Matcher integer = INT.matcher(parameterType);
        if (integer.matches()) {
            int bits = Integer.parseInt(integer.group(1));
            bindInteger(statement, index, bits, exact(index, value, integerName(bits)));
            return true;
        }
        Matcher decimal = DECIMAL.matcher(parameterType);
        if (decimal.matches()) {
            int precision = Integer.parseInt(decimal.group(1));
            int scale = Integer.parseInt(decimal.group(2));
            String type = "DECIMAL(" + precision + ", " + scale + ")";
            BigDecimal scaled = exact(index, value, type).setScale(scale, RoundingMode.HALF_UP);
            if (scaled.precision() - scaled.scale() > precision - scale) {
                throw outOfRange(index, value, type);
            }
            statement.setBigDecimal(index, scaled);
            return true;
        }
        Matcher floating = FLOATING.matcher(parameterType);
        if (floating.matches() && !(value instanceof Double) && !(value instanceof Float)) {
            boolean single = !floating.group(1).equals("DOUBLE");
            String type = single ? "REAL" : "DOUBLE";
            double number = exact(index, value, type).doubleValue();
            if (Double.isInfinite(number) || (single && Math.abs(number) > Float.MAX_VALUE)) {
                throw outOfRange(index, value, type);
            }
            if (single) {
                statement.setFloat(index, (float) number);
            }
            else {
                statement.setDouble(index, number);
            }
            return true;
        }
        return false;
    }

    private static void bindInteger(PreparedStatement statement, int index, int bits, BigDecimal value)
            throws SQLException
    {
        String type = integerName(bits);
        BigInteger whole;
        try {
            whole = value.toBigIntegerExact();
        }
        catch (ArithmeticException e) {
            throw new SQLException("Parameter " + index + ": " + value.toPlainString() + " is not a whole number, and the parameter is " + type, "22018");
        }
        if (whole.bitLength() >= bits) {
            throw outOfRange(index, value, type);
        }
        long number = whole.longValue();
        switch (bits) {
            case 8 -> statement.setByte(index, (byte) number);
            case 16 -> statement.setShort(index, (short) number);
            case 32 -> statement.setInt(index, (int) number);
            default -> statement.setLong(index, number);
        }
    }

    /** The value as an exact decimal; text is parsed (surrounding blanks allowed). */
    private static BigDecimal exact(int index, Object value, String type)
            throws SQLException
    {
        if (value instanceof BigDecimal decimal) {
            return decimal;
        }
        if (value instanceof BigInteger integer) {
            return new BigDecimal(integer);
        }
        if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            if (Double.isNaN(number) || Double.isInfinite(number)) {
                throw outOfRange(index, value, type);
            }
            return BigDecimal.valueOf(number);
        }
        if (value instanceof Number number) {
            return BigDecimal.valueOf(number.longValue());
        }
        String text = ((String) value).strip();
        try {
            return new BigDecimal(text);
        }
        catch (NumberFormatException e) {
            throw new SQLException("Parameter " + index + ": '" + abbreviate(text) + "' is not a number, and the parameter is " + type, "22018");
        }
    }

    private static SQLException outOfRange(int index, Object value, String type)
    {
        String shown = value instanceof BigDecimal decimal ? decimal.toString() : String.valueOf(value);
        return new SQLException("Parameter " + index + ": " + abbreviate(shown) + " is out of range for " + type, "22003");
    }

    private static String integerName(int bits)
    {
        return switch (bits) {
            case 8 -> "TINYINT";
            case 16 -> "SMALLINT";
            case 32 -> "INTEGER";
            default -> "BIGINT";
        };
    }

    private static String abbreviate(String text)
    {
        return text.length() <= 60 ? text : text.substring(0, 60) + "...";
    }
}
