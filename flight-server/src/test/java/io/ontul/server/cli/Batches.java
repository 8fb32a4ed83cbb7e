package io.ontul.server.cli;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Builds small batches by hand; a null value is SQL NULL. */
final class Batches
{
    private Batches() {}

    static VectorSchemaRoot batch(FieldVector... vectors)
    {
        VectorSchemaRoot root = new VectorSchemaRoot(List.of(vectors));
        root.setRowCount(vectors.length == 0 ? 0 : vectors[0].getValueCount());
        return root;
    }

    static IntVector integers(BufferAllocator allocator, String name, Integer... values)
    {
        IntVector vector = new IntVector(name, allocator);
        vector.allocateNew(values.length);
        for (int row = 0; row < values.length; row++) {
            if (values[row] == null) {
                vector.setNull(row);
            }
            else {
                vector.set(row, values[row]);
            }
        }
        vector.setValueCount(values.length);
        return vector;
    }

    static BigIntVector bigints(BufferAllocator allocator, String name, Long... values)
    {
        BigIntVector vector = new BigIntVector(name, allocator);
        vector.allocateNew(values.length);
        for (int row = 0; row < values.length; row++) {
            if (values[row] == null) {
                vector.setNull(row);
            }
            else {
                vector.set(row, values[row]);
            }
        }
        vector.setValueCount(values.length);
        return vector;
    }

    static Float8Vector doubles(BufferAllocator allocator, String name, Double... values)
    {
        Float8Vector vector = new Float8Vector(name, allocator);
        vector.allocateNew(values.length);
        for (int row = 0; row < values.length; row++) {
            if (values[row] == null) {
                vector.setNull(row);
            }
            else {
                vector.set(row, values[row]);
            }
        }
        vector.setValueCount(values.length);
        return vector;
    }

    static DecimalVector decimals(BufferAllocator allocator, String name, int precision, int scale, String... values)
    {
        DecimalVector vector = new DecimalVector(name, allocator, precision, scale);
        vector.allocateNew(values.length);
        for (int row = 0; row < values.length; row++) {
            if (values[row] == null) {
                vector.setNull(row);
            }
            else {
                vector.set(row, new BigDecimal(values[row]));
            }
        }
        vector.setValueCount(values.length);
        return vector;
    }

    static VarCharVector strings(BufferAllocator allocator, String name, String... values)
    {
        VarCharVector vector = new VarCharVector(name, allocator);
        vector.allocateNew(values.length);
        for (int row = 0; row < values.length; row++) {
            if (values[row] == null) {
                vector.setNull(row);
            }
            else {
                vector.setSafe(row, values[row].getBytes(StandardCharsets.UTF_8));
            }
        }
        vector.setValueCount(values.length);
        return vector;
    }

    static BitVector booleans(BufferAllocator allocator, String name, Boolean... values)
    {
        BitVector vector = new BitVector(name, allocator);
        vector.allocateNew(values.length);
        for (int row = 0; row < values.length; row++) {
            if (values[row] == null) {
                vector.setNull(row);
            }
            else {
                vector.set(row, values[row] ? 1 : 0);
            }
        }
        vector.setValueCount(values.length);
        return vector;
    }

    /** Days since 1970-01-01. */
    static DateDayVector dates(BufferAllocator allocator, String name, Integer... days)
    {
        DateDayVector vector = new DateDayVector(name, allocator);
        vector.allocateNew(days.length);
        for (int row = 0; row < days.length; row++) {
            if (days[row] == null) {
                vector.setNull(row);
            }
            else {
                vector.set(row, days[row]);
            }
        }
        vector.setValueCount(days.length);
        return vector;
    }

    /** Milliseconds since 1970-01-01 00:00:00, no time zone. */
    static TimeStampMilliVector timestamps(BufferAllocator allocator, String name, Long... millis)
    {
        TimeStampMilliVector vector = new TimeStampMilliVector(name, allocator);
        vector.allocateNew(millis.length);
        for (int row = 0; row < millis.length; row++) {
            if (millis[row] == null) {
                vector.setNull(row);
            }
            else {
                vector.set(row, millis[row]);
            }
        }
        vector.setValueCount(millis.length);
        return vector;
    }
}
