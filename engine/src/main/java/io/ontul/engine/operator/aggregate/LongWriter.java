package io.ontul.engine.operator.aggregate;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TinyIntVector;

/** Writes a long-represented value into the vector of its type (the inverse of Columns.getLong). */
public final class LongWriter
{
    private LongWriter() {}

    public static void write(FieldVector out, int index, long value)
    {
        if (out instanceof BigIntVector v) {
            v.setSafe(index, value);
        }
        else if (out instanceof IntVector v) {
            v.setSafe(index, (int) value);
        }
        else if (out instanceof DecimalVector v) {
            v.setSafe(index, value);
        }
        else if (out instanceof DateDayVector v) {
            v.setSafe(index, (int) value);
        }
        else if (out instanceof org.apache.arrow.vector.TimeStampVector v) {
            // with or without a time zone, milliseconds or microseconds: the long as it is
            v.setSafe(index, value);
        }
        else if (out instanceof SmallIntVector v) {
            v.setSafe(index, (short) value);
        }
        else if (out instanceof TinyIntVector v) {
            v.setSafe(index, (byte) value);
        }
        else if (out instanceof TimeMilliVector v) {
            v.setSafe(index, (int) value);
        }
        else if (out instanceof BitVector v) {
            v.setSafe(index, (int) value);
        }
        else {
            throw new IllegalStateException("cannot write a long to " + out.getMinorType());
        }
    }
}
