package io.ontul.server.flight;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

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
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.TimeStampSecVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.DenseUnionVector;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Turns a parameter batch a client bound to a prepared statement into the Java values
 * {@link io.ontul.engine.api.Session#execute(String, List)} takes: one list per row, one value per
 * column in order, SQL NULL as null.
 */
public final class ParameterValues
{
    private static final long MICROS_PER_SECOND = 1_000_000;
    private static final long NANOS_PER_MICRO = 1_000;

    private ParameterValues() {}

    public static List<List<Object>> rows(VectorSchemaRoot batch)
    {
        List<List<Object>> rows = new ArrayList<>();
        List<FieldVector> columns = batch.getFieldVectors();
        for (int row = 0; row < batch.getRowCount(); row++) {
            List<Object> values = new ArrayList<>(columns.size());
            for (FieldVector column : columns) {
                values.add(value(column, row));
            }
            rows.add(values);
        }
        return rows;
    }

    static Object value(FieldVector vector, int row)
    {
        if (vector instanceof NullVector || vector.isNull(row)) {
            return null;
        }
        if (vector instanceof BigIntVector v) {
            return v.get(row);
        }
        if (vector instanceof IntVector v) {
            return v.get(row);
        }
        if (vector instanceof SmallIntVector v) {
            return v.get(row);
        }
        if (vector instanceof TinyIntVector v) {
            return v.get(row);
        }
        if (vector instanceof BitVector v) {
            return v.get(row) != 0;
        }
        if (vector instanceof Float8Vector v) {
            return v.get(row);
        }
        if (vector instanceof Float4Vector v) {
            return v.get(row);
        }
        if (vector instanceof DecimalVector v) {
            return v.getObject(row);
        }
        if (vector instanceof VarCharVector v) {
            return v.getObject(row).toString();
        }
        if (vector instanceof LargeVarCharVector v) {
            return v.getObject(row).toString();
        }
        if (vector instanceof DateDayVector v) {
            return LocalDate.ofEpochDay(v.get(row));
        }
        if (vector instanceof DateMilliVector v) {
            return LocalDate.ofEpochDay(Math.floorDiv(v.get(row), 86_400_000L));
        }
        if (vector instanceof TimeSecVector v) {
            return LocalTime.ofSecondOfDay(v.get(row));
        }
        if (vector instanceof TimeMilliVector v) {
            return LocalTime.ofNanoOfDay(v.get(row) * 1_000_000L);
        }
        if (vector instanceof TimeMicroVector v) {
            return LocalTime.ofNanoOfDay(v.get(row) * NANOS_PER_MICRO);
        }
        if (vector instanceof TimeNanoVector v) {
            return LocalTime.ofNanoOfDay(v.get(row));
        }
        if (vector instanceof TimeStampSecVector v) {
            return LocalDateTime.ofEpochSecond(v.get(row), 0, ZoneOffset.UTC);
        }
        if (vector instanceof TimeStampMilliVector v) {
            return LocalDateTime.ofInstant(Instant.ofEpochMilli(v.get(row)), ZoneOffset.UTC);
        }
        if (vector instanceof TimeStampMicroVector v) {
            long micros = v.get(row);
            return LocalDateTime.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND), (int) (Math.floorMod(micros, MICROS_PER_SECOND) * NANOS_PER_MICRO), ZoneOffset.UTC);
        }
        if (vector instanceof TimeStampNanoVector v) {
            long nanos = v.get(row);
            return LocalDateTime.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), (int) Math.floorMod(nanos, 1_000_000_000L), ZoneOffset.UTC);
        }
        if (vector instanceof DenseUnionVector union) {
            // clients that bind to an untyped parameter send a union of the Java types they saw
            return value((FieldVector) union.getVectorByType(union.getTypeId(row)), union.getOffset(row));
        }
        throw new OntulException(ErrorCode.NOT_SUPPORTED, "Parameters of type " + vector.getField().getType() + " are not supported");
    }
}
