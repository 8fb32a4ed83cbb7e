package io.ontul.catalog.iceberg.read;

import java.nio.ByteBuffer;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.iceberg.types.Type;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Chooses the {@link ParquetBulkLoader} for a file column and a table column, for the common
 * types: int32 and int64 integers, dates, microsecond/millisecond/nanosecond timestamps, decimals
 * stored as int32/int64, float, double and strings. Others (booleans, times, UUIDs, decimals in
 * binary) are read through Parquet's column reader ({@link ParquetColumnLoaders}).
 */
final class ParquetBulkLoaders
{
    private ParquetBulkLoaders() {}

    /** The loader, or null if this combination is not read in bulk. */
    static ParquetBulkLoader<?> create(ColumnDescriptor descriptor, Type tableType)
    {
        PrimitiveType primitive = descriptor.getPrimitiveType();
        PrimitiveTypeName physical = primitive.getPrimitiveTypeName();
        return switch (tableType.typeId()) {
            case INTEGER -> physical == PrimitiveTypeName.INT32 ? new IntLoader() : null;
            case DATE -> physical == PrimitiveTypeName.INT32 ? new DateLoader() : null;
            case LONG -> physical == PrimitiveTypeName.INT64 ? new LongLoader() : physical == PrimitiveTypeName.INT32 ? new IntToLongLoader() : null;
            case DECIMAL -> physical == PrimitiveTypeName.INT64 ? new LongDecimalLoader() : physical == PrimitiveTypeName.INT32 ? new IntDecimalLoader() : null;
            case TIMESTAMP, TIMESTAMP_NANO -> physical == PrimitiveTypeName.INT64 ? timestamp(primitive.getLogicalTypeAnnotation()) : null;
            case FLOAT -> physical == PrimitiveTypeName.FLOAT ? new FloatLoader() : null;
            case DOUBLE -> physical == PrimitiveTypeName.DOUBLE ? new DoubleLoader() : physical == PrimitiveTypeName.FLOAT ? new FloatToDoubleLoader() : null;
            case STRING -> physical == PrimitiveTypeName.BINARY ? new StringLoader() : null;
            default -> null;
        };
    }

    private static ParquetBulkLoader<?> timestamp(LogicalTypeAnnotation annotation)
    {
        LogicalTypeAnnotation.TimeUnit unit = annotation instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation timestamp ? timestamp.getUnit() : LogicalTypeAnnotation.TimeUnit.MICROS;
        return switch (unit) {
            case MILLIS -> new TimestampLoader(1_000, 1);
            case MICROS -> new TimestampLoader(1, 1);
            case NANOS -> new TimestampLoader(1, 1_000);
        };
    }

    private static final class LongLoader
            extends ParquetBulkLoader<BigIntVector>
    {
        LongLoader()
        {
            super(BigIntVector.class);
        }

        @Override
        void fill(ParquetPageDecoder decoder, BigIntVector vector, int first, int count, int present, boolean[] nulls)
        {
            long[] values = decoder.longs(present);
            for (int i = 0, value = 0; i < count; i++) {
                if (!nulls[i]) {
                    vector.set(first + i, values[value++]);
                }
            }
        }
    }

    private static final class IntToLongLoader
            extends ParquetBulkLoader<BigIntVector>
    {
        IntToLongLoader()
        {
            super(BigIntVector.class);
        }

        @Override
        void fill(ParquetPageDecoder decoder, BigIntVector vector, int first, int count, int present, boolean[] nulls)
        {
            int[] values = decoder.ints(present);
            for (int i = 0, value = 0; i < count; i++) {
                if (!nulls[i]) {
                    vector.set(first + i, values[value++]);
                }
            }
        }
    }

    private static final class IntLoader
            extends ParquetBulkLoader<IntVector>
    {
        IntLoader()
        {
            super(IntVector.class);
        }

        @Override
        void fill(ParquetPageDecoder decoder, IntVector vector, int first, int count, int present, boolean[] nulls)
        {
            int[] values = decoder.ints(present);
            for (int i = 0, value = 0; i < count; i++) {
                if (!nulls[i]) {
                    vector.set(first + i, values[value++]);
                }
            }
        }
    }

    private static final class DateLoader
            extends ParquetBulkLoader<DateDayVector>
    {
        DateLoader()
        {
            super(DateDayVector.class);
        }

        @Override
        void fill(ParquetPageDecoder decoder, DateDayVector vector, int first, int count, int present, boolean[] nulls)
        {
            int[] values = decoder.ints(present);
            for (int i = 0, value = 0; i < count; i++) {
                if (!nulls[i]) {
                    vector.set(first + i, values[value++]);
                }
            }
        }
    }

    private static final class LongDecimalLoader
            extends ParquetBulkLoader<DecimalVector>
    {
        LongDecimalLoader()
        {
            super(DecimalVector.class);
        }

        @Override
        void fill(ParquetPageDecoder decoder, DecimalVector vector, int first, int count, int present, boolean[] nulls)
        {
            long[] values = decoder.longs(present);
            for (int i = 0, value = 0; i < count; i++) {
                if (!nulls[i]) {
                    vector.set(first + i, values[value++]);
                }
            }
        }
    }

    private static final class IntDecimalLoader
            extends ParquetBulkLoader<DecimalVector>
    {
        IntDecimalLoader()
        {
            super(DecimalVector.class);
        }

        @Override
        void fill(ParquetPageDecoder decoder, DecimalVector vector, int first, int count, int present, boolean[] nulls)
        {
            int[] values = decoder.ints(present);
            for (int i = 0, value = 0; i < count; i++) {
                if (!nulls[i]) {
                    vector.set(first + i, values[value++]);
                }
            }
        }
    }

    /** Microseconds: the file's value times {@code multiplier}, divided (rounding down) by {@code divisor}. */
    private static final class TimestampLoader
            extends ParquetBulkLoader<TimeStampVector>
    {
        private final long multiplier;
        private final long divisor;

        TimestampLoader(long multiplier, long divisor)
        {
            super(TimeStampVector.class);
            this.multiplier = multiplier;
            this.divisor = divisor;
        }

        @Override
        void fill(ParquetPageDecoder decoder, TimeStampVector vector, int first, int count, int present, boolean[] nulls)
        {
            long[] values = decoder.longs(present);
            for (int i = 0, value = 0; i < count; i++) {
                if (!nulls[i]) {
                    long raw = values[value++];
                    vector.set(first + i, divisor == 1 ? raw * multiplier : Math.floorDiv(raw, divisor));
                }
            }
        }
    }

    private static final class FloatLoader
            extends ParquetBulkLoader<Float4Vector>
    {
        FloatLoader()
        {
            super(Float4Vector.class);
        }

        @Override
        void fill(ParquetPageDecoder decoder, Float4Vector vector, int first, int count, int present, boolean[] nulls)
        {
            float[] values = decoder.floats(present);
            for (int i = 0, value = 0; i < count; i++) {
                if (!nulls[i]) {
                    vector.set(first + i, values[value++]);
                }
            }
        }
    }

    private static final class FloatToDoubleLoader
            extends ParquetBulkLoader<Float8Vector>
    {
        FloatToDoubleLoader()
        {
            super(Float8Vector.class);
        }

        @Override
        void fill(ParquetPageDecoder decoder, Float8Vector vector, int first, int count, int present, boolean[] nulls)
        {
            float[] values = decoder.floats(present);
            for (int i = 0, value = 0; i < count; i++) {
                if (!nulls[i]) {
                    vector.set(first + i, values[value++]);
                }
            }
        }
    }

    private static final class DoubleLoader
            extends ParquetBulkLoader<Float8Vector>
    {
        DoubleLoader()
        {
            super(Float8Vector.class);
        }

        @Override
        void fill(ParquetPageDecoder decoder, Float8Vector vector, int first, int count, int present, boolean[] nulls)
        {
            double[] values = decoder.doubles(present);
            for (int i = 0, value = 0; i < count; i++) {
                if (!nulls[i]) {
                    vector.set(first + i, values[value++]);
                }
            }
        }
    }

    private static final class StringLoader
            extends ParquetBulkLoader<VarCharVector>
            implements ParquetPageDecoder.BinaryTarget
    {
        private VarCharVector vector;
        private int[] rows = new int[0];

        StringLoader()
        {
            super(VarCharVector.class);
        }

        @Override
        void allocate(VarCharVector vector, int rows)
        {
            vector.allocateNew(Math.max(1024L, rows * 16L), rows);
        }

        @Override
        void fill(ParquetPageDecoder decoder, VarCharVector vector, int first, int count, int present, boolean[] nulls)
        {
            if (rows.length < present) {
                rows = new int[Math.max(present, rows.length * 2)];
            }
            for (int i = 0, value = 0; i < count; i++) {
                if (!nulls[i]) {
                    rows[value++] = first + i;
                }
            }
            this.vector = vector;
            decoder.binaries(present, this);
            this.vector = null;
        }

        @Override
        public void accept(int index, ByteBuffer buffer, int position, int length)
        {
            vector.setSafe(rows[index], buffer, position, length);
        }

        @Override
        public void accept(int index, byte[] bytes)
        {
            vector.setSafe(rows[index], bytes, 0, bytes.length);
        }
    }
}
