package io.ontul.catalog.iceberg.read;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.UUID;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Chooses the {@link ParquetColumnLoader} for a file column and a table column: the file's
 * physical type and logical annotation on one side (files written before a type promotion keep
 * the old type, int for a column now long, say), the Arrow type of the table column on the other.
 */
final class ParquetColumnLoaders
{
    private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    private ParquetColumnLoaders() {}

    /**
     * @param fileSchema the file's schema, for the definition levels of a list and its repeated group
     * @throws OntulException NOT_SUPPORTED when the file column cannot be read as the table column
     */
    static ParquetColumnLoader<?> create(MessageType fileSchema, ColumnDescriptor descriptor, Type tableType, String file)
    {
        if (tableType.isListType()) {
            return list(fileSchema, descriptor, tableType.asListType(), file);
        }
        if (descriptor.getMaxRepetitionLevel() > 0) {
            throw notSupported(descriptor, tableType, file);
        }
        return scalar(descriptor, tableType, file);
    }

    /**
     * A list of scalars: one leaf column, repeated once (the three-level list of the Parquet spec,
     * or the two-level form older writers used, where the repeated field is the element).
     */
    private static ParquetColumnLoader<?> list(MessageType fileSchema, ColumnDescriptor descriptor, Types.ListType tableType, String file)
    {
        String[] path = descriptor.getPath();
        if (descriptor.getMaxRepetitionLevel() != 1 || !tableType.elementType().isPrimitiveType()) {
            throw notSupported(descriptor, tableType, file);
        }
        int repeatedDepth = -1;
        for (int depth = 1; depth <= path.length && repeatedDepth < 0; depth++) {
            if (fileSchema.getType(Arrays.copyOf(path, depth)).isRepetition(org.apache.parquet.schema.Type.Repetition.REPEATED)) {
                repeatedDepth = depth;
            }
        }
        if (repeatedDepth < 2) {
            throw notSupported(descriptor, tableType, file);
        }
        int listDefined = fileSchema.getMaxDefinitionLevel(Arrays.copyOf(path, 1));
        int elementPresent = fileSchema.getMaxDefinitionLevel(Arrays.copyOf(path, repeatedDepth));
        return new ListLoader(scalar(descriptor, tableType.elementType(), file), listDefined, elementPresent);
    }

    private static OntulException notSupported(ColumnDescriptor descriptor, Type tableType, String file)
    {
        return OntulException.userError(ErrorCode.NOT_SUPPORTED, "Column '%s' of data file %s has Parquet type %s, which Ontul cannot read as Iceberg type %s",
                String.join(".", descriptor.getPath()), file, descriptor.getPrimitiveType(), tableType);
    }

    private static ParquetColumnLoader<?> scalar(ColumnDescriptor descriptor, Type tableType, String file)
    {
        PrimitiveType primitive = descriptor.getPrimitiveType();
        PrimitiveTypeName physical = primitive.getPrimitiveTypeName();
        LogicalTypeAnnotation annotation = primitive.getLogicalTypeAnnotation();
        ParquetColumnLoader<?> loader = switch (tableType.typeId()) {
            case BOOLEAN -> physical == PrimitiveTypeName.BOOLEAN ? new BooleanLoader() : null;
            case INTEGER -> physical == PrimitiveTypeName.INT32 ? new IntLoader() : null;
            case LONG -> switch (physical) {
                case INT64 -> new LongLoader();
                case INT32 -> new IntToLongLoader();
                default -> null;
            };
            case FLOAT -> physical == PrimitiveTypeName.FLOAT ? new FloatLoader() : null;
            case DOUBLE -> switch (physical) {
                case DOUBLE -> new DoubleLoader();
                case FLOAT -> new FloatToDoubleLoader();
                default -> null;
            };
            case DATE -> physical == PrimitiveTypeName.INT32 ? new DateLoader() : null;
            case TIME -> time(physical, annotation);
            case TIMESTAMP, TIMESTAMP_NANO -> timestamp(physical, annotation);
            case STRING -> physical == PrimitiveTypeName.BINARY || physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY ? new BytesLoader<>(VarCharVector.class) : null;
            case BINARY, FIXED -> physical == PrimitiveTypeName.BINARY || physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY ? new BytesLoader<>(VarBinaryVector.class) : null;
            case UUID -> physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY && primitive.getTypeLength() == 16 ? new UuidLoader() : null;
            case DECIMAL -> switch (physical) {
                case INT32 -> new IntDecimalLoader();
                case INT64 -> new LongDecimalLoader();
                case BINARY, FIXED_LEN_BYTE_ARRAY -> new BinaryDecimalLoader();
                default -> null;
            };
            default -> null;
        };
        if (loader == null) {
            throw notSupported(descriptor, tableType, file);
        }
        return loader;
    }

    /**
     * A list column from its one leaf: a row's values follow one another until the next value of
     * repetition level 0; a definition level below {@code listDefined} is a NULL list, below
     * {@code elementPresent} an empty one, below the maximum a NULL element.
     */
    private static final class ListLoader
            extends ParquetColumnLoader<ListVector>
    {
        private final ParquetColumnLoader<?> element;
        private final int listDefined;
        private final int elementPresent;

        ListLoader(ParquetColumnLoader<?> element, int listDefined, int elementPresent)
        {
            super(ListVector.class);
            this.element = element;
            this.listDefined = listDefined;
            this.elementPresent = elementPresent;
        }

        @Override
        void load(ColumnReader reader, FieldVector vector, int rowCount, boolean[] deleted, int keptRows)
        {
            ListVector list = (ListVector) vector;
            list.setInitialCapacity(keptRows);
            list.allocateNew();
            FieldVector data = list.getDataVector();
            int maxDefinitionLevel = reader.getDescriptor().getMaxDefinitionLevel();
            int index = 0;
            int elements = 0;
            for (int row = 0; row < rowCount; row++) {
                boolean kept = deleted == null || !deleted[row];
                int definitionLevel = reader.getCurrentDefinitionLevel();
                boolean isNull = definitionLevel < listDefined;
                int start = elements;
                // the row's values: the first, then those repeated (level 1) after it; at the chunk's end the level reads 0
                do {
                    definitionLevel = reader.getCurrentDefinitionLevel();
                    if (definitionLevel >= elementPresent) {
                        if (!kept) {
                            if (definitionLevel == maxDefinitionLevel) {
                                reader.skip();
                            }
                        }
                        else {
                            while (elements >= data.getValueCapacity()) {
                                data.reAlloc();
                            }
                            if (definitionLevel == maxDefinitionLevel) {
                                element.readElement(reader, data, elements);
                            }
                            else {
                                data.setNull(elements);
                            }
                            elements++;
                        }
                    }
                    reader.consume();
                }
                while (reader.getCurrentRepetitionLevel() > 0);
                if (kept) {
                    if (isNull) {
                        list.setNull(index);
                    }
                    else {
                        list.startNewValue(index);
                        list.endValue(index, elements - start);
                    }
                    index++;
                }
            }
            list.setValueCount(keptRows);
        }

        @Override
        void read(ColumnReader reader, ListVector vector, int index)
        {
            throw new IllegalStateException("a list is read a row at a time, in load");
        }
    }

    private static ParquetColumnLoader<?> time(PrimitiveTypeName physical, LogicalTypeAnnotation annotation)
    {
        if (physical == PrimitiveTypeName.INT32) {
            return new TimeLoader(true, 1);
        }
        if (physical != PrimitiveTypeName.INT64) {
            return null;
        }
        LogicalTypeAnnotation.TimeUnit unit = annotation instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation time ? time.getUnit() : LogicalTypeAnnotation.TimeUnit.MICROS;
        return new TimeLoader(false, unit == LogicalTypeAnnotation.TimeUnit.NANOS ? 1_000_000 : unit == LogicalTypeAnnotation.TimeUnit.MILLIS ? 1 : 1_000);
    }

    private static ParquetColumnLoader<?> timestamp(PrimitiveTypeName physical, LogicalTypeAnnotation annotation)
    {
        if (physical == PrimitiveTypeName.INT96) {
            return new Int96TimestampLoader();
        }
        if (physical != PrimitiveTypeName.INT64) {
            return null;
        }
        LogicalTypeAnnotation.TimeUnit unit = annotation instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation timestamp ? timestamp.getUnit() : LogicalTypeAnnotation.TimeUnit.MICROS;
        return switch (unit) {
            case MILLIS -> new TimestampLoader(1_000, 1);
            case MICROS -> new TimestampLoader(1, 1);
            case NANOS -> new TimestampLoader(1, 1_000);
        };
    }

    private static final class BooleanLoader
            extends ParquetColumnLoader<BitVector>
    {
        BooleanLoader()
        {
            super(BitVector.class);
        }

        @Override
        void read(ColumnReader reader, BitVector vector, int index)
        {
            vector.set(index, reader.getBoolean() ? 1 : 0);
        }
    }

    private static final class IntLoader
            extends ParquetColumnLoader<IntVector>
    {
        IntLoader()
        {
            super(IntVector.class);
        }

        @Override
        void read(ColumnReader reader, IntVector vector, int index)
        {
            vector.set(index, reader.getInteger());
        }
    }

    private static final class LongLoader
            extends ParquetColumnLoader<BigIntVector>
    {
        LongLoader()
        {
            super(BigIntVector.class);
        }

        @Override
        void read(ColumnReader reader, BigIntVector vector, int index)
        {
            vector.set(index, reader.getLong());
        }
    }

    private static final class IntToLongLoader
            extends ParquetColumnLoader<BigIntVector>
    {
        IntToLongLoader()
        {
            super(BigIntVector.class);
        }

        @Override
        void read(ColumnReader reader, BigIntVector vector, int index)
        {
            vector.set(index, reader.getInteger());
        }
    }

    private static final class FloatLoader
            extends ParquetColumnLoader<Float4Vector>
    {
        FloatLoader()
        {
            super(Float4Vector.class);
        }

        @Override
        void read(ColumnReader reader, Float4Vector vector, int index)
        {
            vector.set(index, reader.getFloat());
        }
    }

    private static final class DoubleLoader
            extends ParquetColumnLoader<Float8Vector>
    {
        DoubleLoader()
        {
            super(Float8Vector.class);
        }

        @Override
        void read(ColumnReader reader, Float8Vector vector, int index)
        {
            vector.set(index, reader.getDouble());
        }
    }

    private static final class FloatToDoubleLoader
            extends ParquetColumnLoader<Float8Vector>
    {
        FloatToDoubleLoader()
        {
            super(Float8Vector.class);
        }

        @Override
        void read(ColumnReader reader, Float8Vector vector, int index)
        {
            vector.set(index, reader.getFloat());
        }
    }

    private static final class DateLoader
            extends ParquetColumnLoader<DateDayVector>
    {
        DateLoader()
        {
            super(DateDayVector.class);
        }

        @Override
        void read(ColumnReader reader, DateDayVector vector, int index)
        {
            vector.set(index, reader.getInteger());
        }
    }

    /** Time of day in milliseconds: the file's value (int32 or int64) divided by {@code divisor}. */
    private static final class TimeLoader
            extends ParquetColumnLoader<TimeMilliVector>
    {
        private final boolean int32;
        private final long divisor;

        TimeLoader(boolean int32, long divisor)
        {
            super(TimeMilliVector.class);
            this.int32 = int32;
            this.divisor = divisor;
        }

        @Override
        void read(ColumnReader reader, TimeMilliVector vector, int index)
        {
            long value = int32 ? reader.getInteger() : reader.getLong();
            vector.set(index, (int) Math.floorDiv(value, divisor));
        }
    }

    /** Microseconds since the epoch: the file's value times {@code multiplier}, divided by {@code divisor}. */
    private static final class TimestampLoader
            extends ParquetColumnLoader<TimeStampVector>
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
        void read(ColumnReader reader, TimeStampVector vector, int index)
        {
            long value = reader.getLong();
            vector.set(index, divisor == 1 ? value * multiplier : Math.floorDiv(value, divisor));
        }
    }

    /** Legacy Impala/Hive timestamps: nanoseconds of the day, then the Julian day, little-endian. */
    private static final class Int96TimestampLoader
            extends ParquetColumnLoader<TimeStampVector>
    {
        Int96TimestampLoader()
        {
            super(TimeStampVector.class);
        }

        @Override
        void read(ColumnReader reader, TimeStampVector vector, int index)
        {
            ByteBuffer bytes = reader.getBinary().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            long nanosOfDay = bytes.getLong(bytes.position());
            long julianDay = bytes.getInt(bytes.position() + 8);
            vector.set(index, (julianDay - JULIAN_DAY_OF_EPOCH) * MICROS_PER_DAY + nanosOfDay / 1000);
        }
    }

    /** Text or binary cells: the value's bytes as Parquet holds them. */
    private static final class BytesLoader<V extends BaseVariableWidthVector>
            extends ParquetColumnLoader<V>
    {
        BytesLoader(Class<V> vectorClass)
        {
            super(vectorClass);
        }

        @Override
        void allocate(V vector, int rows)
        {
            vector.allocateNew(Math.max(1024L, rows * 16L), rows);
        }

        @Override
        void read(ColumnReader reader, V vector, int index)
        {
            Binary binary = reader.getBinary();
            ByteBuffer bytes = binary.toByteBuffer();
            vector.setSafe(index, bytes, bytes.position(), bytes.remaining());
        }
    }

    private static final class UuidLoader
            extends ParquetColumnLoader<VarCharVector>
    {
        UuidLoader()
        {
            super(VarCharVector.class);
        }

        @Override
        void allocate(VarCharVector vector, int rows)
        {
            vector.allocateNew(rows * 36L, rows);
        }

        @Override
        void read(ColumnReader reader, VarCharVector vector, int index)
        {
            ByteBuffer bytes = reader.getBinary().toByteBuffer().order(ByteOrder.BIG_ENDIAN);
            UUID uuid = new UUID(bytes.getLong(bytes.position()), bytes.getLong(bytes.position() + 8));
            vector.setSafe(index, uuid.toString().getBytes(US_ASCII));
        }
    }

    private static final class IntDecimalLoader
            extends ParquetColumnLoader<DecimalVector>
    {
        IntDecimalLoader()
        {
            super(DecimalVector.class);
        }

        @Override
        void read(ColumnReader reader, DecimalVector vector, int index)
        {
            vector.set(index, reader.getInteger());
        }
    }

    private static final class LongDecimalLoader
            extends ParquetColumnLoader<DecimalVector>
    {
        LongDecimalLoader()
        {
            super(DecimalVector.class);
        }

        @Override
        void read(ColumnReader reader, DecimalVector vector, int index)
        {
            vector.set(index, reader.getLong());
        }
    }

    private static final class BinaryDecimalLoader
            extends ParquetColumnLoader<DecimalVector>
    {
        BinaryDecimalLoader()
        {
            super(DecimalVector.class);
        }

        @Override
        void read(ColumnReader reader, DecimalVector vector, int index)
        {
            vector.setBigEndian(index, reader.getBinary().getBytesUnsafe());
        }
    }
}
