package io.ontul.catalog.kafka.decoder;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;

/**
 * Converts one JSON value (never JSON null: the row decoder handles nulls) to a column's type and
 * writes it, or only checks it when there is no vector. Conversions are lenient where the intent
 * is clear: numbers in strings, integral numbers written as {@code 5.0}, any scalar or nested
 * JSON (as its text) into VARCHAR; anything else is malformed.
 */
abstract class JsonColumnDecoder
{
    private final String column;
    private final String typeName;

    JsonColumnDecoder(String column, String typeName)
    {
        this.column = requireNonNull(column, "column is null");
        this.typeName = requireNonNull(typeName, "typeName is null");
    }

    abstract void decode(JsonParser parser, JsonToken token, FieldVector vector, int row)
            throws IOException, MalformedRecordException;

    static JsonColumnDecoder forField(Field field, JsonFactory factory)
    {
        String name = field.getName();
        ArrowType type = field.getType();
        switch (type.getTypeID()) {
            case Bool:
                return new BooleanDecoder(name);
            case Int:
                return new IntegerDecoder(name, ((ArrowType.Int) type).getBitWidth());
            case FloatingPoint:
                return ((ArrowType.FloatingPoint) type).getPrecision() == FloatingPointPrecision.SINGLE ? new RealDecoder(name) : new DoubleDecoder(name);
            case Decimal:
                ArrowType.Decimal decimal = (ArrowType.Decimal) type;
                return new DecimalDecoder(name, decimal.getPrecision(), decimal.getScale());
            case Utf8:
                return new VarcharDecoder(name, factory);
            case Date:
                return new DateDecoder(name);
            case Time:
                return new TimeDecoder(name);
            case Timestamp:
                return new TimestampDecoder(name, ((ArrowType.Timestamp) type).getUnit() == TimeUnit.MICROSECOND);
            default:
                throw new IllegalArgumentException("Unsupported column type for JSON decoding: " + type);
        }
    }

    final MalformedRecordException cannotConvert(JsonParser parser, JsonToken token)
            throws IOException
    {
        String shown = switch (token) {
            case START_OBJECT -> "a JSON object";
            case START_ARRAY -> "a JSON array";
            case VALUE_STRING -> "'" + shorten(parser.getText()) + "'";
            default -> shorten(parser.getText());
        };
        return new MalformedRecordException("column '" + column + "' (" + typeName + ") cannot hold " + shown);
    }

    final MalformedRecordException outOfRange(JsonParser parser)
            throws IOException
    {
        return new MalformedRecordException("column '" + column + "' (" + typeName + ") cannot hold " + shorten(parser.getText()) + ": out of range");
    }

    private static String shorten(String text)
    {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }

    /** The value as a long: integers, integral decimals, and integers in strings. */
    final long longValue(JsonParser parser, JsonToken token)
            throws IOException, MalformedRecordException
    {
        switch (token) {
            case VALUE_NUMBER_INT:
                if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                    throw outOfRange(parser);
                }
                return parser.getLongValue();
            case VALUE_NUMBER_FLOAT:
                double value = parser.getDoubleValue();
                if (value != Math.rint(value) || Math.abs(value) >= 9.2e18) {
                    throw cannotConvert(parser, token);
                }
                return (long) value;
            case VALUE_STRING:
                try {
                    return Long.parseLong(parser.getText().trim());
                }
                catch (NumberFormatException e) {
                    throw cannotConvert(parser, token);
                }
            default:
                throw cannotConvert(parser, token);
        }
    }

    final double doubleValue(JsonParser parser, JsonToken token)
            throws IOException, MalformedRecordException
    {
        switch (token) {
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return parser.getDoubleValue();
            case VALUE_STRING:
                try {
                    return Double.parseDouble(parser.getText().trim());
                }
                catch (NumberFormatException e) {
                    throw cannotConvert(parser, token);
                }
            default:
                throw cannotConvert(parser, token);
        }
    }

    private static final class BooleanDecoder
            extends JsonColumnDecoder
    {
        BooleanDecoder(String column)
        {
            super(column, "BOOLEAN");
        }

        @Override
        void decode(JsonParser parser, JsonToken token, FieldVector vector, int row)
                throws IOException, MalformedRecordException
        {
            boolean value;
            if (token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE) {
                value = token == JsonToken.VALUE_TRUE;
            }
            else if (token == JsonToken.VALUE_STRING && parser.getText().trim().equalsIgnoreCase("true")) {
                value = true;
            }
            else if (token == JsonToken.VALUE_STRING && parser.getText().trim().equalsIgnoreCase("false")) {
                value = false;
            }
            else {
                throw cannotConvert(parser, token);
            }
            if (vector != null) {
                ((BitVector) vector).setSafe(row, value ? 1 : 0);
            }
        }
    }

    private static final class IntegerDecoder
            extends JsonColumnDecoder
    {
        private final int bits;
        private final long min;
        private final long max;

        IntegerDecoder(String column, int bits)
        {
            super(column, switch (bits) {
                case 8 -> "TINYINT";
                case 16 -> "SMALLINT";
                case 32 -> "INTEGER";
                default -> "BIGINT";
            });
            this.bits = bits;
            this.min = bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1));
            this.max = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
        }

        @Override
        void decode(JsonParser parser, JsonToken token, FieldVector vector, int row)
                throws IOException, MalformedRecordException
        {
            long value = longValue(parser, token);
            if (value < min || value > max) {
                throw outOfRange(parser);
            }
            if (vector == null) {
                return;
            }
            switch (bits) {
                case 8 -> ((TinyIntVector) vector).setSafe(row, (byte) value);
                case 16 -> ((SmallIntVector) vector).setSafe(row, (short) value);
                case 32 -> ((IntVector) vector).setSafe(row, (int) value);
                default -> ((BigIntVector) vector).setSafe(row, value);
            }
        }
    }

    private static final class RealDecoder
            extends JsonColumnDecoder
    {
        RealDecoder(String column)
        {
            super(column, "REAL");
        }

        @Override
        void decode(JsonParser parser, JsonToken token, FieldVector vector, int row)
                throws IOException, MalformedRecordException
        {
            double value = doubleValue(parser, token);
            float narrowed = (float) value;
            if (Float.isInfinite(narrowed) && !Double.isInfinite(value)) {
                throw outOfRange(parser);
            }
            if (vector != null) {
                ((Float4Vector) vector).setSafe(row, narrowed);
            }
        }
    }

    private static final class DoubleDecoder
            extends JsonColumnDecoder
    {
        DoubleDecoder(String column)
        {
            super(column, "DOUBLE");
        }

        @Override
        void decode(JsonParser parser, JsonToken token, FieldVector vector, int row)
                throws IOException, MalformedRecordException
        {
            double value = doubleValue(parser, token);
            if (vector != null) {
                ((Float8Vector) vector).setSafe(row, value);
            }
        }
    }

    private static final class DecimalDecoder
            extends JsonColumnDecoder
    {
        private final int precision;
        private final int scale;

        DecimalDecoder(String column, int precision, int scale)
        {
            super(column, "DECIMAL(" + precision + "," + scale + ")");
            this.precision = precision;
            this.scale = scale;
        }

        @Override
        void decode(JsonParser parser, JsonToken token, FieldVector vector, int row)
                throws IOException, MalformedRecordException
        {
            BigDecimal value;
            try {
                value = switch (token) {
                    case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> parser.getDecimalValue();
                    case VALUE_STRING -> new BigDecimal(parser.getText().trim());
                    default -> throw cannotConvert(parser, token);
                };
            }
            catch (NumberFormatException e) {
                throw cannotConvert(parser, token);
            }
            value = value.setScale(scale, RoundingMode.HALF_UP);
            if (value.precision() > precision) {
                throw outOfRange(parser);
            }
            if (vector != null) {
                ((DecimalVector) vector).setSafe(row, value);
            }
        }
    }

    private static final class VarcharDecoder
            extends JsonColumnDecoder
    {
        private final JsonFactory factory;
        private final Utf8Buffer buffer = new Utf8Buffer();
        private final ByteArrayBuilder nested = new ByteArrayBuilder();

        VarcharDecoder(String column, JsonFactory factory)
        {
            super(column, "VARCHAR");
            this.factory = requireNonNull(factory, "factory is null");
        }

        @Override
        void decode(JsonParser parser, JsonToken token, FieldVector vector, int row)
                throws IOException
        {
            if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
                nested.reset();
                try (JsonGenerator generator = factory.createGenerator(nested)) {
                    generator.copyCurrentStructure(parser);
                }
                if (vector != null) {
                    ((VarCharVector) vector).setSafe(row, nested.toByteArray());
                }
                return;
            }
            if (vector == null) {
                return;
            }
            if (token == JsonToken.VALUE_STRING) {
                buffer.encode(parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
                ((VarCharVector) vector).setSafe(row, buffer.bytes(), 0, buffer.length());
            }
            else {
                ((VarCharVector) vector).setSafe(row, parser.getText().getBytes(UTF_8));
            }
        }
    }

    private static final class DateDecoder
            extends JsonColumnDecoder
    {
        DateDecoder(String column)
        {
            super(column, "DATE");
        }

        @Override
        void decode(JsonParser parser, JsonToken token, FieldVector vector, int row)
                throws IOException, MalformedRecordException
        {
            int epochDay;
            if (token == JsonToken.VALUE_STRING) {
                try {
                    epochDay = TimestampText.parseEpochDay(parser.getText());
                }
                catch (IllegalArgumentException | ArithmeticException e) {
                    throw cannotConvert(parser, token);
                }
            }
            else if (token == JsonToken.VALUE_NUMBER_INT) {
                long days = longValue(parser, token);
                if (days < Integer.MIN_VALUE || days > Integer.MAX_VALUE) {
                    throw outOfRange(parser);
                }
                epochDay = (int) days;
            }
            else {
                throw cannotConvert(parser, token);
            }
            if (vector != null) {
                ((DateDayVector) vector).setSafe(row, epochDay);
            }
        }
    }

    private static final class TimeDecoder
            extends JsonColumnDecoder
    {
        TimeDecoder(String column)
        {
            super(column, "TIME(3)");
        }

        @Override
        void decode(JsonParser parser, JsonToken token, FieldVector vector, int row)
                throws IOException, MalformedRecordException
        {
            int millisOfDay;
            if (token == JsonToken.VALUE_STRING) {
                try {
                    millisOfDay = TimestampText.parseMillisOfDay(parser.getText());
                }
                catch (IllegalArgumentException e) {
                    throw cannotConvert(parser, token);
                }
            }
            else if (token == JsonToken.VALUE_NUMBER_INT) {
                long millis = longValue(parser, token);
                if (millis < 0 || millis >= 86_400_000) {
                    throw outOfRange(parser);
                }
                millisOfDay = (int) millis;
            }
            else {
                throw cannotConvert(parser, token);
            }
            if (vector != null) {
                ((TimeMilliVector) vector).setSafe(row, millisOfDay);
            }
        }
    }

    /** ISO-8601 text without a zone, or a number of epoch milliseconds. */
    private static final class TimestampDecoder
            extends JsonColumnDecoder
    {
        private final boolean micros;

        TimestampDecoder(String column, boolean micros)
        {
            super(column, micros ? "TIMESTAMP(6)" : "TIMESTAMP(3)");
            this.micros = micros;
        }

        @Override
        void decode(JsonParser parser, JsonToken token, FieldVector vector, int row)
                throws IOException, MalformedRecordException
        {
            long epochMicros;
            if (token == JsonToken.VALUE_STRING) {
                String text = parser.getText();
                try {
                    epochMicros = isEpochNumber(text) ? Math.multiplyExact(Long.parseLong(text.trim()), 1000L) : TimestampText.parseEpochMicros(text);
                }
                catch (IllegalArgumentException | ArithmeticException e) {
                    throw cannotConvert(parser, token);
                }
            }
            else if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
                try {
                    epochMicros = Math.multiplyExact(longValue(parser, token), 1000L);
                }
                catch (ArithmeticException e) {
                    throw outOfRange(parser);
                }
            }
            else {
                throw cannotConvert(parser, token);
            }
            if (vector == null) {
                return;
            }
            if (micros) {
                ((TimeStampMicroVector) vector).setSafe(row, epochMicros);
            }
            else {
                ((TimeStampMilliVector) vector).setSafe(row, Math.floorDiv(epochMicros, 1000L));
            }
        }

        private static boolean isEpochNumber(String text)
        {
            String trimmed = text.trim();
            if (trimmed.isEmpty()) {
                return false;
            }
            for (int i = trimmed.charAt(0) == '-' ? 1 : 0; i < trimmed.length(); i++) {
                if (!Character.isDigit(trimmed.charAt(i))) {
                    return false;
                }
            }
            return trimmed.length() > 4 || trimmed.charAt(0) == '-';
        }
    }
}
