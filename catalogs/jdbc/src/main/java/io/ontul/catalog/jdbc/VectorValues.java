package io.ontul.catalog.jdbc;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Arrays;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.TimeStampSecVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Values of Arrow vectors as the Java objects statements bind: Long for integers, Float, Double,
 * BigDecimal, String, Boolean, byte[], LocalDate, LocalTime, LocalDateTime (timestamps without zone)
 * and OffsetDateTime in UTC (timestamps with one: instants); an ARRAY is a List of such values
 * (NULL elements as null).
 */
final class VectorValues
{
    private VectorValues() {}

    /** The value at {@code row}, or null. */
    static Object value(FieldVector vector, int row)
    {
        if (vector.isNull(row)) {
            return null;
        }
        if (vector instanceof BigIntVector bigInt) {
            return bigInt.get(row);
        }
        if (vector instanceof IntVector integer) {
            return (long) integer.get(row);
        }
        if (vector instanceof SmallIntVector smallInt) {
            return (long) smallInt.get(row);
        }
        if (vector instanceof TinyIntVector tinyInt) {
            return (long) tinyInt.get(row);
        }
        if (vector instanceof Float8Vector float8) {
            return float8.get(row);
        }
        if (vector instanceof Float4Vector float4) {
            return float4.get(row);
        }
        if (vector instanceof DecimalVector decimal) {
            return decimal.getObject(row);
        }
        if (vector instanceof VarCharVector varChar) {
            return new String(varChar.get(row), UTF_8);
        }
        if (vector instanceof LargeVarCharVector largeVarChar) {
            return new String(largeVarChar.get(row), UTF_8);
        }
        if (vector instanceof VarBinaryVector bytes) {
            return bytes.get(row);
        }
        if (vector instanceof BitVector bit) {
            return bit.get(row) != 0;
        }
        if (vector instanceof DateDayVector dateDay) {
            return LocalDate.ofEpochDay(dateDay.get(row));
        }
        if (vector instanceof DateMilliVector dateMilli) {
            return LocalDate.ofEpochDay(Math.floorDiv(dateMilli.get(row), 86_400_000L));
        }
        if (vector instanceof TimeMilliVector timeMilli) {
            return LocalTime.ofNanoOfDay(timeMilli.get(row) * 1_000_000L);
        }
        if (vector instanceof TimeMicroVector timeMicro) {
            return LocalTime.ofNanoOfDay(timeMicro.get(row) * 1_000L);
        }
        if (vector instanceof org.apache.arrow.vector.TimeStampMicroTZVector micros) {
            return java.time.OffsetDateTime.of(dateTime(micros.get(row), 1_000_000L), ZoneOffset.UTC);
        }
        if (vector instanceof org.apache.arrow.vector.TimeStampMilliTZVector millis) {
            return java.time.OffsetDateTime.of(dateTime(millis.get(row), 1_000L), ZoneOffset.UTC);
        }
        if (vector instanceof TimeStampMicroVector micros) {
            return dateTime(micros.get(row), 1_000_000L);
        }
        if (vector instanceof TimeStampMilliVector millis) {
            return dateTime(millis.get(row), 1_000L);
        }
        if (vector instanceof TimeStampSecVector seconds) {
            return dateTime(seconds.get(row), 1L);
        }
        if (vector instanceof TimeStampNanoVector nanos) {
            return dateTime(nanos.get(row), 1_000_000_000L);
        }
        if (vector instanceof ListVector list) {
            FieldVector elements = list.getDataVector();
            int start = list.getElementStartIndex(row);
            Object[] values = new Object[list.getElementEndIndex(row) - start];
            for (int i = 0; i < values.length; i++) {
                values[i] = value(elements, start + i);
            }
            return Arrays.asList(values);
        }
        throw OntulException.userError(ErrorCode.TYPE_MISMATCH, "Cannot write values of type %s (column '%s') to a JDBC table", vector.getField().getType(), vector.getField().getName());
    }

    private static LocalDateTime dateTime(long value, long unitsPerSecond)
    {
        long seconds = Math.floorDiv(value, unitsPerSecond);
        long nanos = Math.floorMod(value, unitsPerSecond) * (1_000_000_000L / unitsPerSecond);
        return LocalDateTime.ofEpochSecond(seconds, (int) nanos, ZoneOffset.UTC);
    }
}
