package io.ontul.engine.testing;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.util.Text;

import io.ontul.engine.api.QueryResult;

/**
 * Drains query results into rows of plain Java values so results of different engines can be
 * compared: integers as {@link Long} (HUGEINT stays {@link BigInteger}), decimals as
 * {@link java.math.BigDecimal}, floating point as {@link Double}, text as {@link String}, dates
 * as {@link LocalDate}, timestamps as {@link LocalDateTime} (with a time zone: {@link Instant}),
 * booleans as {@link Boolean}, SQL NULL as {@code null}.
 */
public final class ResultRows
{
    private ResultRows() {}

    /** Reads every batch of an Ontul result; does not close it. */
    public static List<List<Object>> drain(QueryResult result)
    {
        List<List<Object>> rows = new ArrayList<>();
        VectorSchemaRoot batch;
        while ((batch = result.nextBatch()) != null) {
            List<FieldVector> vectors = batch.getFieldVectors();
            for (int row = 0; row < batch.getRowCount(); row++) {
                Object[] values = new Object[vectors.size()];
                for (int column = 0; column < values.length; column++) {
                    values[column] = value(vectors.get(column), row);
                }
                rows.add(Collections.unmodifiableList(Arrays.asList(values)));
            }
        }
        return rows;
    }

    /** Reads every row of a JDBC result set; does not close it. */
    public static List<List<Object>> drain(ResultSet resultSet)
            throws SQLException
    {
        int columns = resultSet.getMetaData().getColumnCount();
        List<List<Object>> rows = new ArrayList<>();
        while (resultSet.next()) {
            Object[] values = new Object[columns];
            for (int column = 0; column < columns; column++) {
                values[column] = jdbcValue(resultSet.getObject(column + 1));
            }
            rows.add(Collections.unmodifiableList(Arrays.asList(values)));
        }
        return rows;
    }

    public static List<String> columnNames(ResultSetMetaData metadata)
            throws SQLException
    {
        List<String> names = new ArrayList<>();
        for (int column = 1; column <= metadata.getColumnCount(); column++) {
            names.add(metadata.getColumnLabel(column));
        }
        return List.copyOf(names);
    }

    /** The value at {@code index} of an Arrow vector as a plain Java value. */
    public static Object value(FieldVector vector, int index)
    {
        if (vector.isNull(index)) {
            return null;
        }
        if (vector instanceof BigIntVector) {
            return ((BigIntVector) vector).get(index);
        }
        if (vector instanceof IntVector) {
            return (long) ((IntVector) vector).get(index);
        }
        if (vector instanceof SmallIntVector) {
            return (long) ((SmallIntVector) vector).get(index);
        }
        if (vector instanceof TinyIntVector) {
            return (long) ((TinyIntVector) vector).get(index);
        }
        if (vector instanceof DecimalVector) {
            return ((DecimalVector) vector).getObject(index);
        }
        if (vector instanceof Decimal256Vector) {
            return ((Decimal256Vector) vector).getObject(index);
        }
        if (vector instanceof Float8Vector) {
            return ((Float8Vector) vector).get(index);
        }
        if (vector instanceof Float4Vector) {
            return (double) ((Float4Vector) vector).get(index);
        }
        if (vector instanceof VarCharVector) {
            return new String(((VarCharVector) vector).get(index), UTF_8);
        }
        if (vector instanceof LargeVarCharVector) {
            return new String(((LargeVarCharVector) vector).get(index), UTF_8);
        }
        if (vector instanceof DateDayVector) {
            return LocalDate.ofEpochDay(((DateDayVector) vector).get(index));
        }
        if (vector instanceof DateMilliVector) {
            return ((DateMilliVector) vector).getObject(index).toLocalDate();
        }
        if (vector instanceof BitVector) {
            return ((BitVector) vector).get(index) != 0;
        }
        if (vector instanceof TimeStampVector) {
            return timestamp((TimeStampVector) vector, index);
        }
        Object value = vector.getObject(index);
        if (value instanceof Text) {
            return value.toString();
        }
        return value;
    }

    private static Object timestamp(TimeStampVector vector, int index)
    {
        ArrowType.Timestamp type = (ArrowType.Timestamp) vector.getField().getType();
        if (type.getTimezone() == null) {
            return vector.getObject(index);
        }
        long value = vector.get(index);
        switch (type.getUnit()) {
            case SECOND:
                return Instant.ofEpochSecond(value);
            case MILLISECOND:
                return Instant.ofEpochMilli(value);
            case MICROSECOND:
                return Instant.ofEpochSecond(Math.floorDiv(value, 1_000_000L), Math.floorMod(value, 1_000_000L) * 1_000L);
            case NANOSECOND:
                return Instant.ofEpochSecond(0, value);
        }
        throw new IllegalArgumentException("Unknown timestamp unit: " + type.getUnit());
    }

    private static Object jdbcValue(Object value)
    {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float) {
            return ((Float) value).doubleValue();
        }
        if (value instanceof java.sql.Date) {
            return ((java.sql.Date) value).toLocalDate();
        }
        if (value instanceof Timestamp) {
            return ((Timestamp) value).toLocalDateTime();
        }
        if (value instanceof OffsetDateTime) {
            return ((OffsetDateTime) value).toInstant();
        }
        return value;
    }
}
