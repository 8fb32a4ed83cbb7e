package io.ontul.engine.expression;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.regex.Pattern;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Scalar functions called by generated expression code. Every method is static, allocation-free
 * where the type allows, and raises {@link OntulException} with the user-facing message for
 * division by zero, overflow and invalid casts.
 */
public final class Functions
{
    private static final long[] POWERS_OF_TEN = new long[19];
    private static final DateTimeFormatter TIMESTAMP_MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    private static final DateTimeFormatter TIMESTAMP_MICROS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS");
    private static final DateTimeFormatter TIME_SECONDS = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final DateTimeFormatter TIME_MILLIS = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    static {
        long value = 1;
        for (int i = 0; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = value;
            value *= 10;
        }
    }

    private Functions() {}

    // ---- errors

    /** Rethrows a deferred error of a constant expression; returns false when there is none. */
    public static boolean raise(RuntimeException error)
    {
        if (error != null) {
            throw error;
        }
        return false;
    }

    public static OntulException overflow(String type, String operation)
    {
        return new OntulException(ErrorCode.NUMERIC_OVERFLOW, "Numeric overflow: " + type + " " + operation);
    }

    /** For {@code try(x)}: returns when {@code e} is an error of the data (x is then NULL), else throws it on. */
    public static void rethrowUnlessDataError(RuntimeException e)
    {
        if (e instanceof OntulException error) {
            switch (error.code()) {
                case DIVISION_BY_ZERO, NUMERIC_OVERFLOW, INVALID_CAST, INVALID_ARGUMENT -> {
                    return;
                }
                default -> throw e;
            }
        }
        throw e;
    }

    public static OntulException divisionByZero()
    {
        return new OntulException(ErrorCode.DIVISION_BY_ZERO, "Division by zero");
    }

    public static OntulException invalidCast(String value, String type)
    {
        return new OntulException(ErrorCode.INVALID_CAST, "Cannot cast '" + value + "' to " + type);
    }

    // ---- integer arithmetic (BIGINT)

    public static long add(long a, long b)
    {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            throw overflow("BIGINT", "addition");
        }
        return r;
    }

    public static long subtract(long a, long b)
    {
        long r = a - b;
        if (((a ^ b) & (a ^ r)) < 0) {
            throw overflow("BIGINT", "subtraction");
        }
        return r;
    }

    public static long multiply(long a, long b)
    {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) {
            return lo;
        }
        throw overflow("BIGINT", "multiplication");
    }

    public static long divide(long a, long b)
    {
        if (b == 0) {
            throw divisionByZero();
        }
        if (a == Long.MIN_VALUE && b == -1) {
            throw overflow("BIGINT", "division");
        }
        return a / b;
    }

    public static long mod(long a, long b)
    {
        if (b == 0) {
            throw divisionByZero();
        }
        if (b == -1) {
            return 0;
        }
        return a % b;
    }

    public static long negate(long a)
    {
        if (a == Long.MIN_VALUE) {
            throw overflow("BIGINT", "negation");
        }
        return -a;
    }

    /** Narrows a long computed for an INTEGER/SMALLINT/TINYINT result. */
    public static int checkInt(long value, String type)
    {
        long min;
        long max;
        switch (type) {
            case "TINYINT" -> {
                min = Byte.MIN_VALUE;
                max = Byte.MAX_VALUE;
            }
            case "SMALLINT" -> {
                min = Short.MIN_VALUE;
                max = Short.MAX_VALUE;
            }
            default -> {
                min = Integer.MIN_VALUE;
                max = Integer.MAX_VALUE;
            }
        }
        if (value < min || value > max) {
            throw overflow(type, "arithmetic");
        }
        return (int) value;
    }

    public static double divideDouble(double a, double b)
    {
        return a / b;
    }

    public static double modDouble(double a, double b)
    {
        return a % b;
    }

    // ---- decimals: unscaled longs with a scale known at compile time
    // (a result that needs more than 64 bits throws WideDecimals.REQUIRED: the kernel computes
    // the batch again with wide values, which decide whether it is an overflow of the type)

    public static long powerOfTen(int exponent)
    {
        if (exponent < 0 || exponent >= POWERS_OF_TEN.length) {
            throw WideDecimals.REQUIRED;
        }
        return POWERS_OF_TEN[exponent];
    }

    /** Changes the scale of an unscaled value; rounds half away from zero when reducing. */
    public static long rescale(long value, int fromScale, int toScale)
    {
        if (toScale == fromScale) {
            return value;
        }
        if (toScale > fromScale) {
            long factor = powerOfTen(toScale - fromScale);
            long hi = Math.multiplyHigh(value, factor);
            long lo = value * factor;
            if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) {
                return lo;
            }
            throw WideDecimals.REQUIRED;
        }
        if (fromScale - toScale >= POWERS_OF_TEN.length) {
            // |value| < 2^63 < 10^19 / 2: rounds to 0
            return 0;
        }
        long factor = powerOfTen(fromScale - toScale);
        long quotient = value / factor;
        long remainder = value % factor;
        if (Math.abs(remainder) * 2 >= factor) {
            quotient += value < 0 ? -1 : 1;
        }
        return quotient;
    }

    public static long decimalAdd(long a, long b)
    {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            throw WideDecimals.REQUIRED;
        }
        return r;
    }

    public static long decimalSubtract(long a, long b)
    {
        long r = a - b;
        if (((a ^ b) & (a ^ r)) < 0) {
            throw WideDecimals.REQUIRED;
        }
        return r;
    }

    public static long decimalMultiply(long a, long b)
    {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) {
            return lo;
        }
        throw WideDecimals.REQUIRED;
    }

    /** Negation of an unscaled DECIMAL (-Long.MIN_VALUE needs 65 bits). */
    public static long decimalNegate(long a)
    {
        if (a == Long.MIN_VALUE) {
            throw WideDecimals.REQUIRED;
        }
        return -a;
    }

    public static long decimalDivide(long a, int scaleA, long b, int scaleB, int resultScale)
    {
        if (b == 0) {
            throw divisionByZero();
        }
        // (a / 10^scaleA) / (b / 10^scaleB) at resultScale is a * 10^shift / b, rounded half away from zero
        int shift = resultScale + scaleB - scaleA;
        if (shift >= 0 && shift < POWERS_OF_TEN.length && b != Long.MIN_VALUE) {
            long factor = POWERS_OF_TEN[shift];
            long high = Math.multiplyHigh(a, factor);
            long numerator = a * factor;
            // (Long.MIN_VALUE / -1 overflows)
            if (((high == 0 && numerator >= 0) || (high == -1 && numerator < 0)) && numerator != Long.MIN_VALUE) {
                long quotient = numerator / b;
                long remainder = Math.abs(numerator % b);
                long divisor = Math.abs(b);
                if (remainder >= divisor - remainder) {
                    quotient += (numerator < 0) == (b < 0) ? 1 : -1;
                }
                return quotient;
            }
        }
        BigDecimal result = BigDecimal.valueOf(a, scaleA).divide(BigDecimal.valueOf(b, scaleB), resultScale, RoundingMode.HALF_UP);
        return unscaledInLong(result, resultScale);
    }

    public static long decimalMod(long a, int scaleA, long b, int scaleB, int resultScale)
    {
        if (b == 0) {
            throw divisionByZero();
        }
        BigDecimal result = BigDecimal.valueOf(a, scaleA).remainder(BigDecimal.valueOf(b, scaleB));
        return unscaledInLong(result.setScale(resultScale, RoundingMode.HALF_UP), resultScale);
    }

    /** The unscaled value at {@code scale} as a long, or {@link WideDecimals#REQUIRED} (for kernels). */
    private static long unscaledInLong(BigDecimal value, int scale)
    {
        BigInteger unscaled = value.setScale(scale, RoundingMode.HALF_UP).unscaledValue();
        if (unscaled.bitLength() > 63) {
            throw WideDecimals.REQUIRED;
        }
        return unscaled.longValue();
    }

    public static long unscaledExact(BigDecimal value, int scale)
    {
        BigInteger unscaled = value.setScale(scale, RoundingMode.HALF_UP).unscaledValue();
        if (unscaled.bitLength() > 63) {
            throw overflow("DECIMAL", "value");
        }
        return unscaled.longValue();
    }

    public static BigDecimal toBigDecimal(long unscaled, int scale)
    {
        return BigDecimal.valueOf(unscaled, scale);
    }

    public static double decimalToDouble(long unscaled, int scale)
    {
        if (scale < POWERS_OF_TEN.length && Math.abs(unscaled) < (1L << 52)) {
            return unscaled / (double) POWERS_OF_TEN[scale];
        }
        return BigDecimal.valueOf(unscaled, scale).doubleValue();
    }

    public static long doubleToDecimal(double value, int precision, int scale)
    {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw invalidCast(Double.toString(value), "DECIMAL(" + precision + "," + scale + ")");
        }
        return checkPrecision(unscaledInLong(BigDecimal.valueOf(value), scale), precision, scale);
    }

    public static long checkPrecision(long unscaled, int precision, int scale)
    {
        if (precision < 19 && Math.abs(unscaled) >= POWERS_OF_TEN[precision]) {
            throw new OntulException(ErrorCode.NUMERIC_OVERFLOW, "Numeric overflow: value " + BigDecimal.valueOf(unscaled, scale).toPlainString() + " does not fit DECIMAL(" + precision + "," + scale + ")");
        }
        return unscaled;
    }

    /** DECIMAL to an integer type: rounds half away from zero, as PostgreSQL and Trino do. */
    public static long decimalToLong(long unscaled, int scale)
    {
        return rescale(unscaled, scale, 0);
    }

    public static long doubleToLong(double value, String type)
    {
        if (Double.isNaN(value) || value >= 9.223372036854775807E18 || value < -9.223372036854775808E18) {
            throw invalidCast(Double.toString(value), type);
        }
        return Math.round(value);
    }

    /** TRUNCATE of a DECIMAL to {@code digits} places (negative: left of the point), toward zero; the scale stays. */
    public static long truncateDecimal(long unscaled, int scale, long digits)
    {
        if (digits >= scale) {
            return unscaled;
        }
        long drop = scale - digits;
        if (drop >= POWERS_OF_TEN.length) {
            return 0;
        }
        long factor = POWERS_OF_TEN[(int) drop];
        return unscaled / factor * factor;
    }

    /** TRUNCATE of a DOUBLE to {@code digits} places, toward zero. */
    public static double truncateDouble(double value, long digits)
    {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return value;
        }
        if (digits == 0) {
            return value < 0 ? Math.ceil(value) : Math.floor(value);
        }
        return java.math.BigDecimal.valueOf(value).setScale((int) Math.max(Math.min(digits, 400), -400), java.math.RoundingMode.DOWN).doubleValue();
    }

    /** TRUNCATE of an integer to {@code digits} places: only a negative count changes it. */
    public static long truncateLong(long value, long digits)
    {
        if (digits >= 0) {
            return value;
        }
        if (-digits >= POWERS_OF_TEN.length) {
            return 0;
        }
        long factor = POWERS_OF_TEN[(int) -digits];
        return value / factor * factor;
    }

    public static long roundDecimal(long unscaled, int scale, int digits, int resultScale)
    {
        if (digits >= scale) {
            return rescale(unscaled, scale, resultScale);
        }
        long rounded = rescale(unscaled, scale, Math.max(digits, 0));
        if (digits < 0) {
            long factor = powerOfTen(-digits);
            rounded = rescale(unscaled, scale, 0);
            long quotient = rounded / factor;
            long remainder = rounded % factor;
            if (Math.abs(remainder) * 2 >= factor) {
                quotient += rounded < 0 ? -1 : 1;
            }
            return rescale(quotient * factor, 0, resultScale);
        }
        return rescale(rounded, Math.max(digits, 0), resultScale);
    }

    public static double roundDouble(double value, long digits)
    {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return value;
        }
        return BigDecimal.valueOf(value).setScale((int) digits, RoundingMode.HALF_UP).doubleValue();
    }

    public static long floorDecimal(long unscaled, int scale)
    {
        long factor = powerOfTen(scale);
        return Math.floorDiv(unscaled, factor);
    }

    public static long ceilDecimal(long unscaled, int scale)
    {
        long factor = powerOfTen(scale);
        return -Math.floorDiv(-unscaled, factor);
    }

    // ---- comparisons

    public static int compareDecimals(long a, int scaleA, long b, int scaleB)
    {
        if (scaleA == scaleB) {
            return Long.compare(a, b);
        }
        return BigDecimal.valueOf(a, scaleA).compareTo(BigDecimal.valueOf(b, scaleB));
    }

    // ---- strings

    /** Whether the UTF-8 cell equals {@code expected}, compared in place. */
    public static boolean equalsUtf8(org.apache.arrow.vector.VarCharVector vector, int index, byte[] expected)
    {
        long start = vector.getStartOffset(index);
        long end = vector.getEndOffset(index);
        if (end - start != expected.length) {
            return false;
        }
        org.apache.arrow.memory.ArrowBuf data = vector.getDataBuffer();
        for (int i = 0; i < expected.length; i++) {
            if (data.getByte(start + i) != expected[i]) {
                return false;
            }
        }
        return true;
    }

    /** Whether the text at {@code index}, without its trailing spaces, is {@code expected}'s UTF-8 bytes. */
    public static boolean equalsUtf8WithoutTrailingSpaces(org.apache.arrow.vector.VarCharVector vector, int index, byte[] expected)
    {
        long start = vector.getStartOffset(index);
        long end = vector.getEndOffset(index);
        org.apache.arrow.memory.ArrowBuf data = vector.getDataBuffer();
        while (end > start && data.getByte(end - 1) == ' ') {
            end--;
        }
        if (end - start != expected.length) {
            return false;
        }
        for (int i = 0; i < expected.length; i++) {
            if (data.getByte(start + i) != expected[i]) {
                return false;
            }
        }
        return true;
    }

    public static String readUtf8(byte[] bytes)
    {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    public static String substring(String s, long start)
    {
        return substring(s, start, Long.MAX_VALUE / 4);
    }

    /** SQL SUBSTRING: 1-based start, length in code points; start before 1 shortens the result. */
    public static String substring(String s, long start, long length)
    {
        if (length < 0) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Negative substring length not allowed");
        }
        long end = saturatedAdd(start, length);
        long from = Math.max(start, 1);
        int codePoints = s.codePointCount(0, s.length());
        long to = Math.min(end, codePoints + 1L);
        if (to <= from) {
            return "";
        }
        int begin = s.offsetByCodePoints(0, (int) (from - 1));
        int finish = s.offsetByCodePoints(begin, (int) (to - from));
        return s.substring(begin, finish);
    }

    /**
     * Trino's {@code substr(s, start, length)}: 1-based, a negative start counts from the end;
     * start 0, a start beyond either end or a length below 1 give ''. Lengths in code points.
     */
    public static String substr(String s, long start, long length)
    {
        int codePoints = s.codePointCount(0, s.length());
        long from = substrStart(codePoints, start, length);
        if (from < 0) {
            return "";
        }
        int begin = s.offsetByCodePoints(0, (int) (from - 1));
        int finish = s.offsetByCodePoints(begin, (int) (Math.min(codePoints + 1L, saturatedAdd(from, length)) - from));
        return s.substring(begin, finish);
    }

    /** {@code a + b} for non-negative b, Long.MAX_VALUE where it would overflow (lengths as large as users write them). */
    static long saturatedAdd(long a, long b)
    {
        long sum = a + b;
        return b > 0 && sum < a ? Long.MAX_VALUE : sum;
    }

    /** The 1-based first position {@code substr} takes of a value of {@code size} units, or -1 when it takes none. */
    static long substrStart(int size, long start, long length)
    {
        long from = start < 0 ? size + start + 1 : start;
        return start == 0 || length < 1 || from < 1 || from > size ? -1 : from;
    }

    /**
     * SPLIT_PART as PostgreSQL has it: field {@code index} of {@code s} split at every
     * {@code delimiter}, counted from 1, or from the end when negative; '' past the last field;
     * an empty delimiter leaves {@code s} one field.
     */
    public static String splitPart(String s, String delimiter, long index)
    {
        if (index == 0) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "SPLIT_PART field position must not be zero");
        }
        if (delimiter.isEmpty()) {
            return index == 1 || index == -1 ? s : "";
        }
        if (index < 0) {
            int end = s.length();
            for (long field = -1; ; field--) {
                int start = end < delimiter.length() ? -1 : s.lastIndexOf(delimiter, end - delimiter.length());
                if (field == index) {
                    return start < 0 ? s.substring(0, end) : s.substring(start + delimiter.length(), end);
                }
                if (start < 0) {
                    return "";
                }
                end = start;
            }
        }
        int start = 0;
        for (long field = 1; field < index; field++) {
            int next = s.indexOf(delimiter, start);
            if (next < 0) {
                return "";
            }
            start = next + delimiter.length();
        }
        int end = s.indexOf(delimiter, start);
        return end < 0 ? s.substring(start) : s.substring(start, end);
    }

    public static long charLength(String s)
    {
        return s.codePointCount(0, s.length());
    }

    /** Trino's and PostgreSQL's {@code reverse}: the characters (code points) in reverse order. */
    public static String reverse(String s)
    {
        return new StringBuilder(s).reverse().toString();
    }

    /** PostgreSQL's {@code left}: the first {@code n} characters; a negative {@code n}: all but the last {@code -n}. */
    public static String left(String s, long n)
    {
        long length = charLength(s);
        long keep = n >= 0 ? Math.min(n, length) : Math.max(0, length + n);
        return s.substring(0, s.offsetByCodePoints(0, (int) keep));
    }

    /** PostgreSQL's {@code right}: the last {@code n} characters; a negative {@code n}: all but the first {@code -n}. */
    public static String right(String s, long n)
    {
        long length = charLength(s);
        long keep = n >= 0 ? Math.min(n, length) : Math.max(0, length + n);
        return s.substring(s.offsetByCodePoints(0, (int) (length - keep)));
    }

    /**
     * {@code width_bucket(x, bound1, bound2, n)}: the bucket of x among n equal ones between the
     * bounds, 1 to n; 0 before bound1, n + 1 from bound2 on (PostgreSQL's and Trino's: when bound1
     * is above bound2 the buckets count down).
     */
    public static long widthBucket(double x, double bound1, double bound2, long n)
    {
        if (n <= 0) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "width_bucket: the number of buckets must be positive, not " + n);
        }
        if (bound1 == bound2 || !Double.isFinite(bound1) || !Double.isFinite(bound2)) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "width_bucket: the bounds must be finite and different, not " + bound1 + " and " + bound2);
        }
        if (Double.isNaN(x)) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "width_bucket: the operand is NaN");
        }
        if (bound1 < bound2) {
            if (x < bound1) {
                return 0;
            }
            if (x >= bound2) {
                return Math.addExact(n, 1);
            }
            return Math.min(n, (long) Math.floor((x - bound1) / (bound2 - bound1) * n) + 1);
        }
        if (x > bound1) {
            return 0;
        }
        if (x <= bound2) {
            return Math.addExact(n, 1);
        }
        return Math.min(n, (long) Math.floor((bound1 - x) / (bound1 - bound2) * n) + 1);
    }

    /** The longest text LPAD and RPAD make: one call must not fill the heap (the server stops on OutOfMemoryError). */
    static final int MAX_PADDED_LENGTH = 1_000_000;

    /**
     * Trino's {@code lpad} and {@code rpad}: {@code s} padded on the left (right) with repeats of
     * {@code pad} to {@code size} characters, or cut to {@code size} when longer.
     */
    public static String pad(String s, long size, String pad, boolean left)
    {
        if (size < 0 || size > MAX_PADDED_LENGTH) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, (left ? "LPAD" : "RPAD") + " target length must be in the range [0.." + MAX_PADDED_LENGTH + "], not " + size);
        }
        long length = charLength(s);
        if (length >= size) {
            return s.substring(0, s.offsetByCodePoints(0, (int) size));
        }
        if (pad.isEmpty()) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, (left ? "LPAD" : "RPAD") + " padding string must not be empty");
        }
        int[] padding = pad.codePoints().toArray();
        StringBuilder filler = new StringBuilder();
        for (long i = 0; i < size - length; i++) {
            filler.appendCodePoint(padding[(int) (i % padding.length)]);
        }
        return left ? filler + s : s + filler;
    }

    public static long position(String needle, String haystack)
    {
        int index = haystack.indexOf(needle);
        return index < 0 ? 0 : haystack.codePointCount(0, index) + 1;
    }

    public static String trim(String flag, String characters, String s)
    {
        int start = 0;
        int end = s.length();
        if (!flag.equals("TRAILING")) {
            while (start < end && characters.indexOf(s.charAt(start)) >= 0) {
                start++;
            }
        }
        if (!flag.equals("LEADING")) {
            while (end > start && characters.indexOf(s.charAt(end - 1)) >= 0) {
                end--;
            }
        }
        return s.substring(start, end);
    }

    public static String padChar(String s, int length)
    {
        if (s.length() >= length) {
            return s.length() == length ? s : s.substring(0, length);
        }
        StringBuilder builder = new StringBuilder(length).append(s);
        while (builder.length() < length) {
            builder.append(' ');
        }
        return builder.toString();
    }

    public static String truncate(String s, int length)
    {
        return s.length() <= length ? s : s.substring(0, length);
    }

    public static int compareCharacters(String a, String b)
    {
        return compareStrings(stripTrailingSpaces(a), stripTrailingSpaces(b));
    }

    /** SQL comparison of doubles: -0.0 equals 0.0; NaN is larger than every other value. */
    public static int compareDoubles(double a, double b)
    {
        if (a < b) {
            return -1;
        }
        if (a > b) {
            return 1;
        }
        return a == b ? 0 : Double.compare(a, b);
    }

    public static String stripTrailingSpaces(String s)
    {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return end == s.length() ? s : s.substring(0, end);
    }

    /**
     * Orders text by code point, which is the order of the UTF-8 bytes that ORDER BY, MIN and MAX
     * compare (String.compareTo orders UTF-16 units and differs for characters beyond U+FFFF).
     */
    public static int compareStrings(String a, String b)
    {
        int length = Math.min(a.length(), b.length());
        for (int i = 0; i < length; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                if (Character.isSurrogate(x) || Character.isSurrogate(y)) {
                    return Integer.compare(a.codePointAt(i), b.codePointAt(i));
                }
                return Character.compare(x, y);
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    // ---- casts from text

    public static long parseLong(String text, String type)
    {
        try {
            return Long.parseLong(text.trim());
        }
        catch (NumberFormatException e) {
            throw invalidCast(text, type);
        }
    }

    public static double parseDouble(String text, String type)
    {
        try {
            return Double.parseDouble(text.trim());
        }
        catch (NumberFormatException e) {
            throw invalidCast(text, type);
        }
    }

    public static long parseDecimal(String text, int precision, int scale)
    {
        try {
            return checkPrecision(unscaledInLong(new BigDecimal(text.trim()), scale), precision, scale);
        }
        catch (NumberFormatException e) {
            throw invalidCast(text, "DECIMAL(" + precision + "," + scale + ")");
        }
    }

    public static boolean parseBoolean(String text)
    {
        String value = text.trim().toLowerCase(java.util.Locale.ROOT);
        return switch (value) {
            case "true", "t", "1", "yes" -> true;
            case "false", "f", "0", "no" -> false;
            default -> throw invalidCast(text, "BOOLEAN");
        };
    }

    public static int parseDate(String text)
    {
        try {
            return (int) LocalDate.parse(text.trim()).toEpochDay();
        }
        catch (DateTimeParseException e) {
            throw invalidCast(text, "DATE");
        }
    }

    public static int parseTime(String text)
    {
        try {
            return (int) (LocalTime.parse(text.trim()).toNanoOfDay() / 1_000_000);
        }
        catch (DateTimeParseException e) {
            throw invalidCast(text, "TIME");
        }
    }

    public static long parseTimestamp(String text, boolean micros)
    {
        String value = text.trim().replace('T', ' ');
        try {
            LocalDateTime dateTime = value.length() <= 10
                    ? LocalDate.parse(value).atStartOfDay()
                    : LocalDateTime.parse(value.replace(' ', 'T'));
            long seconds = dateTime.toLocalDate().toEpochDay() * 86400 + dateTime.toLocalTime().toSecondOfDay();
            return micros ? seconds * 1_000_000 + dateTime.getNano() / 1000 : seconds * 1000 + dateTime.getNano() / 1_000_000;
        }
        catch (DateTimeParseException e) {
            throw invalidCast(text, "TIMESTAMP");
        }
    }

    // ---- casts to text

    public static String decimalToString(long unscaled, int scale)
    {
        return BigDecimal.valueOf(unscaled, scale).toPlainString();
    }

    public static String doubleToString(double value)
    {
        return Double.toString(value);
    }

    public static String dateToString(int days)
    {
        return LocalDate.ofEpochDay(days).toString();
    }

    /**
     * {@code HH:mm:ss}, with {@code .SSS} when the milliseconds are not zero (as PostgreSQL and
     * DuckDB print a TIME; {@code LocalTime.toString()} also drops zero seconds: {@code 00:00}).
     */
    public static String timeToString(int millis)
    {
        LocalTime time = LocalTime.ofNanoOfDay(millis * 1_000_000L);
        return (millis % 1000 == 0 ? TIME_SECONDS : TIME_MILLIS).format(time);
    }

    public static String timestampToString(long value, boolean micros)
    {
        LocalDateTime dateTime = toLocalDateTime(value, micros);
        return (micros ? TIMESTAMP_MICROS : TIMESTAMP_MILLIS).format(dateTime);
    }

    public static LocalDateTime toLocalDateTime(long value, boolean micros)
    {
        long unitsPerSecond = micros ? 1_000_000 : 1000;
        long seconds = Math.floorDiv(value, unitsPerSecond);
        long fraction = Math.floorMod(value, unitsPerSecond);
        return LocalDateTime.ofEpochSecond(seconds, (int) (fraction * (1_000_000_000L / unitsPerSecond)), java.time.ZoneOffset.UTC);
    }

    // ---- dates and times

    /**
     * Trino's {@code date_trunc(unit, x)} of a DATE (epoch days): the first day of its week
     * (Monday), month, quarter or year; day and smaller units leave a date as it is.
     */
    public static int truncateDate(String unit, int days)
    {
        return (int) truncate(unit, java.time.LocalDate.ofEpochDay(days).atStartOfDay()).toLocalDate().toEpochDay();
    }

    /** {@code date_trunc(unit, x)} of a TIMESTAMP in epoch milliseconds or microseconds. */
    public static long truncateTimestamp(String unit, long value, boolean micros)
    {
        LocalDateTime truncated = truncate(unit, toLocalDateTime(value, micros));
        long seconds = truncated.toEpochSecond(java.time.ZoneOffset.UTC);
        long fraction = truncated.getNano() / (micros ? 1000 : 1_000_000);
        return seconds * (micros ? 1_000_000 : 1000) + fraction;
    }

    private static LocalDateTime truncate(String unit, LocalDateTime value)
    {
        return switch (unit.toLowerCase(java.util.Locale.ROOT)) {
            case "millisecond" -> value.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
            case "second" -> value.truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
            case "minute" -> value.truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
            case "hour" -> value.truncatedTo(java.time.temporal.ChronoUnit.HOURS);
            case "day" -> value.truncatedTo(java.time.temporal.ChronoUnit.DAYS);
            case "week" -> value.truncatedTo(java.time.temporal.ChronoUnit.DAYS).with(java.time.temporal.TemporalAdjusters.previousOrSame(java.time.DayOfWeek.MONDAY));
            case "month" -> value.truncatedTo(java.time.temporal.ChronoUnit.DAYS).withDayOfMonth(1);
            case "quarter" -> value.truncatedTo(java.time.temporal.ChronoUnit.DAYS).withDayOfMonth(1).withMonth((value.getMonthValue() - 1) / 3 * 3 + 1);
            case "year" -> value.truncatedTo(java.time.temporal.ChronoUnit.DAYS).withDayOfYear(1);
            default -> throw new OntulException(ErrorCode.INVALID_ARGUMENT, "DATE_TRUNC unit must be millisecond, second, minute, hour, day, week, month, quarter or year, not '" + unit + "'");
        };
    }

    /** Trino's {@code date_add(unit, value, date)} of a DATE (epoch days); units from day up. */
    public static int dateAdd(String unit, long value, int days)
    {
        java.time.temporal.ChronoUnit chronoUnit = chronoUnit(unit);
        if (chronoUnit.getDuration().compareTo(java.time.Duration.ofDays(1)) < 0) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "DATE_ADD of a DATE takes day, week, month, quarter or year, not '" + unit + "'");
        }
        return (int) java.time.LocalDate.ofEpochDay(days).plus(amount(unit, value), chronoUnit).toEpochDay();
    }

    /**
     * Trino's {@code format(format, args...)}: Java's {@link String#format} in the ROOT locale, the
     * arguments as Java values (DECIMAL as BigDecimal, DATE as LocalDate, TIMESTAMP as
     * LocalDateTime); a format that does not fit its arguments is a user error naming it.
     */
    public static String format(String format, Object... arguments)
    {
        try {
            return String.format(java.util.Locale.ROOT, format, arguments);
        }
        catch (java.util.IllegalFormatException e) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Invalid format '" + format + "' for its arguments: " + e.getMessage());
        }
    }

    /**
     * Trino's {@code date_diff(unit, a, b)} of two DATEs (epoch days): the whole units from a to b,
     * negative when b is earlier. A month is whole when the day of month comes round again or
     * the later date is the last of its month (Jan 31 to Feb 29 is 1 month, Feb 29 2020 to
     * Feb 28 2021 one year), as in Trino and DuckDB.
     */
    public static long dateDiff(String unit, int a, int b)
    {
        java.time.temporal.ChronoUnit chronoUnit = chronoUnit(unit);
        if (chronoUnit.getDuration().compareTo(java.time.Duration.ofDays(1)) < 0) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "DATE_DIFF of DATEs takes day, week, month, quarter or year, not '" + unit + "'");
        }
        long whole = between(chronoUnit, java.time.LocalDate.ofEpochDay(a).atStartOfDay(), java.time.LocalDate.ofEpochDay(b).atStartOfDay());
        return unit.equalsIgnoreCase("quarter") ? whole / 3 : whole;
    }

    /** {@code date_diff(unit, a, b)} of two TIMESTAMPs in epoch milliseconds or microseconds. */
    public static long timestampDiff(String unit, long a, long b, boolean micros)
    {
        long whole = between(chronoUnit(unit), toLocalDateTime(a, micros), toLocalDateTime(b, micros));
        return unit.equalsIgnoreCase("quarter") ? whole / 3 : whole;
    }

    private static long between(java.time.temporal.ChronoUnit unit, LocalDateTime a, LocalDateTime b)
    {
        if (unit == java.time.temporal.ChronoUnit.MONTHS || unit == java.time.temporal.ChronoUnit.YEARS) {
            LocalDateTime earlier = a.isAfter(b) ? b : a;
            LocalDateTime later = a.isAfter(b) ? a : b;
            java.time.LocalDate end = later.toLocalDate();
            if (end.getDayOfMonth() == end.lengthOfMonth() && earlier.getDayOfMonth() > end.getDayOfMonth()) {
                earlier = earlier.withDayOfMonth(end.getDayOfMonth());
            }
            long whole = unit.between(earlier, later);
            return a.isAfter(b) ? -whole : whole;
        }
        return unit.between(a, b);
    }

    /** {@code date_add(unit, value, timestamp)} of a TIMESTAMP in epoch milliseconds or microseconds. */
    public static long timestampAdd(String unit, long value, long timestamp, boolean micros)
    {
        return fromLocalDateTime(toLocalDateTime(timestamp, micros).plus(amount(unit, value), chronoUnit(unit)), micros);
    }

    private static long amount(String unit, long value)
    {
        return unit.equalsIgnoreCase("quarter") ? Math.multiplyExact(value, 3) : value;
    }

    private static java.time.temporal.ChronoUnit chronoUnit(String unit)
    {
        return switch (unit.toLowerCase(java.util.Locale.ROOT)) {
            case "millisecond" -> java.time.temporal.ChronoUnit.MILLIS;
            case "second" -> java.time.temporal.ChronoUnit.SECONDS;
            case "minute" -> java.time.temporal.ChronoUnit.MINUTES;
            case "hour" -> java.time.temporal.ChronoUnit.HOURS;
            case "day" -> java.time.temporal.ChronoUnit.DAYS;
            case "week" -> java.time.temporal.ChronoUnit.WEEKS;
            case "month", "quarter" -> java.time.temporal.ChronoUnit.MONTHS;
            case "year" -> java.time.temporal.ChronoUnit.YEARS;
            default -> throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Unit must be millisecond, second, minute, hour, day, week, month, quarter or year, not '" + unit + "'");
        };
    }

    private static long fromLocalDateTime(LocalDateTime value, boolean micros)
    {
        long seconds = value.toEpochSecond(java.time.ZoneOffset.UTC);
        return micros ? seconds * 1_000_000 + value.getNano() / 1000 : seconds * 1000 + value.getNano() / 1_000_000;
    }

    private static final java.util.Map<String, java.util.regex.Pattern> PATTERNS = new java.util.concurrent.ConcurrentHashMap<>();

    /** A regular expression (Java's syntax, close to Trino's RE2J), compiled once per text; an invalid one is a user error naming it. */
    static java.util.regex.Pattern pattern(String regex)
    {
        java.util.regex.Pattern cached = PATTERNS.get(regex);
        if (cached != null) {
            return cached;
        }
        java.util.regex.Pattern compiled;
        try {
            compiled = java.util.regex.Pattern.compile(regex);
        }
        catch (java.util.regex.PatternSyntaxException e) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Invalid regular expression '" + regex + "': " + e.getDescription());
        }
        if (PATTERNS.size() < 1000) {
            PATTERNS.put(regex, compiled);
        }
        return compiled;
    }

    /** Trino's {@code regexp_like}: whether the pattern matches anywhere in {@code s}. */
    public static boolean regexpLike(String s, String regex)
    {
        return pattern(regex).matcher(s).find();
    }

    /** Trino's {@code regexp_replace}: every match replaced ({@code $1} names a group); without a replacement, removed. */
    public static String regexpReplace(String s, String regex, String replacement)
    {
        try {
            return pattern(regex).matcher(s).replaceAll(replacement);
        }
        catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Invalid replacement '" + replacement + "' for regular expression '" + regex + "': " + e.getMessage());
        }
    }

    /** Trino's {@code regexp_extract}: the first match (or its group {@code group}), or null when there is none. */
    public static String regexpExtract(String s, String regex, long group)
    {
        java.util.regex.Matcher matcher = pattern(regex).matcher(s);
        if (group < 0 || group > matcher.groupCount()) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Pattern '" + regex + "' has " + matcher.groupCount() + " groups, so it has no group " + group);
        }
        return matcher.find() ? matcher.group((int) group) : null;
    }

    public static String greatest(String left, String right)
    {
        return left.compareTo(right) >= 0 ? left : right;
    }

    public static String least(String left, String right)
    {
        return left.compareTo(right) <= 0 ? left : right;
    }

    public static int addMonthsToDate(int days, long months)
    {
        return (int) LocalDate.ofEpochDay(days).plusMonths(months).toEpochDay();
    }

    public static long addMonthsToTimestamp(long value, long months, boolean micros)
    {
        long unitsPerDay = micros ? 86_400_000_000L : 86_400_000L;
        long day = Math.floorDiv(value, unitsPerDay);
        long within = Math.floorMod(value, unitsPerDay);
        return LocalDate.ofEpochDay(day).plusMonths(months).toEpochDay() * unitsPerDay + within;
    }

    /** DATE + day-time interval (milliseconds): the whole days of the interval. */
    public static int addMillisToDate(int days, long millis)
    {
        return Math.toIntExact(days + Math.floorDiv(millis, 86_400_000L));
    }

    public static long dateToTimestamp(int days, boolean micros)
    {
        return days * (micros ? 86_400_000_000L : 86_400_000L);
    }

    public static int timestampToDate(long value, boolean micros)
    {
        return (int) Math.floorDiv(value, micros ? 86_400_000_000L : 86_400_000L);
    }

    public static long extractFromDate(String unit, int days)
    {
        LocalDate date = LocalDate.ofEpochDay(days);
        return switch (unit) {
            case "YEAR" -> date.getYear();
            case "QUARTER" -> (date.getMonthValue() - 1) / 3 + 1;
            case "MONTH" -> date.getMonthValue();
            case "WEEK" -> date.get(java.time.temporal.IsoFields.WEEK_OF_WEEK_BASED_YEAR);
            case "DAY" -> date.getDayOfMonth();
            case "DOW" -> date.getDayOfWeek().getValue() % 7;
            case "ISODOW" -> date.getDayOfWeek().getValue();
            case "DOY" -> date.getDayOfYear();
            case "DECADE" -> date.getYear() / 10;
            case "CENTURY" -> (date.getYear() + 99) / 100;
            case "EPOCH" -> days * 86400L;
            case "HOUR", "MINUTE", "SECOND" -> 0;
            default -> throw new OntulException(ErrorCode.NOT_SUPPORTED, "EXTRACT(" + unit + ") is not supported for DATE");
        };
    }

    public static long extractFromTimestamp(String unit, long value, boolean micros)
    {
        LocalDateTime dateTime = toLocalDateTime(value, micros);
        return switch (unit) {
            case "HOUR" -> dateTime.getHour();
            case "MINUTE" -> dateTime.getMinute();
            case "SECOND" -> dateTime.getSecond();
            case "MILLISECOND" -> dateTime.get(ChronoField.MILLI_OF_SECOND) + dateTime.getSecond() * 1000L;
            case "EPOCH" -> Math.floorDiv(value, micros ? 1_000_000L : 1000L);
            default -> extractFromDate(unit, (int) dateTime.toLocalDate().toEpochDay());
        };
    }

    public static long extractFromTime(String unit, int millis)
    {
        return switch (unit) {
            case "HOUR" -> millis / 3_600_000;
            case "MINUTE" -> millis / 60_000 % 60;
            case "SECOND" -> millis / 1000 % 60;
            default -> throw new OntulException(ErrorCode.NOT_SUPPORTED, "EXTRACT(" + unit + ") is not supported for TIME");
        };
    }

    public static long extractFromInterval(String unit, long value, boolean yearMonth)
    {
        if (yearMonth) {
            return switch (unit) {
                case "YEAR" -> value / 12;
                case "MONTH" -> value % 12;
                default -> 0;
            };
        }
        return switch (unit) {
            case "DAY" -> value / 86_400_000L;
            case "HOUR" -> value / 3_600_000L % 24;
            case "MINUTE" -> value / 60_000L % 60;
            case "SECOND" -> value / 1000L % 60;
            default -> 0;
        };
    }

    // ---- LIKE

    public static Pattern likePattern(String pattern, String escape)
    {
        StringBuilder regex = new StringBuilder();
        Character escapeChar = null;
        if (escape != null) {
            if (escape.length() != 1) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, "LIKE escape must be a single character: '" + escape + "'");
            }
            escapeChar = escape.charAt(0);
        }
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escapeChar != null && c == escapeChar) {
                if (i + 1 >= pattern.length()) {
                    throw new OntulException(ErrorCode.INVALID_ARGUMENT, "LIKE pattern ends with the escape character: '" + pattern + "'");
                }
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            }
            else if (c == '%') {
                regex.append(".*");
            }
            else if (c == '_') {
                regex.append('.');
            }
            else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    public static boolean like(String value, Pattern pattern)
    {
        return pattern.matcher(value).matches();
    }

    public static boolean like(String value, String pattern, String escape)
    {
        return likePattern(pattern, escape).matcher(value).matches();
    }
}
