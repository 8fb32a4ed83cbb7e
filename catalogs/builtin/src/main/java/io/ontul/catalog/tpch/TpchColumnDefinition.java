package io.ontul.catalog.tpch;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * One column of a TPC-H table: its Arrow field and how to fill a vector of it from generated
 * rows. Key columns are BIGINT, counts INTEGER, money and quantities DECIMAL(15, 2) taken from
 * the generator's integer cents, dates DATE, text VARCHAR(n) with the specification's length.
 */
public final class TpchColumnDefinition<E>
{
    public static final String TYPE_METADATA_KEY = "ontul.type";

    private static final ArrowType BIGINT = new ArrowType.Int(64, true);
    private static final ArrowType INTEGER = new ArrowType.Int(32, true);
    private static final ArrowType DECIMAL = new ArrowType.Decimal(15, 2, 128);
    private static final ArrowType DATE = new ArrowType.Date(DateUnit.DAY);

    private final String name;
    private final Field field;
    private final VectorWriter<E> writer;

    private TpchColumnDefinition(String name, Field field, VectorWriter<E> writer)
    {
        this.name = requireNonNull(name, "name is null");
        this.field = requireNonNull(field, "field is null");
        this.writer = requireNonNull(writer, "writer is null");
    }

    public String name()
    {
        return name;
    }

    public Field field()
    {
        return field;
    }

    /** Allocates {@code vector} for {@code rows.size()} values and fills it. */
    void write(List<E> rows, FieldVector vector)
    {
        writer.write(rows, vector);
    }

    static <E> TpchColumnDefinition<E> bigint(String name, ToLongFunction<E> getter)
    {
        return new TpchColumnDefinition<>(name, field(name, BIGINT, Map.of()), (rows, vector) -> {
            BigIntVector target = (BigIntVector) vector;
            int count = rows.size();
            target.allocateNew(count);
            for (int i = 0; i < count; i++) {
                target.set(i, getter.applyAsLong(rows.get(i)));
            }
            target.setValueCount(count);
        });
    }

    static <E> TpchColumnDefinition<E> integer(String name, ToIntFunction<E> getter)
    {
        return new TpchColumnDefinition<>(name, field(name, INTEGER, Map.of()), (rows, vector) -> {
            IntVector target = (IntVector) vector;
            int count = rows.size();
            target.allocateNew(count);
            for (int i = 0; i < count; i++) {
                target.set(i, getter.applyAsInt(rows.get(i)));
            }
            target.setValueCount(count);
        });
    }

    /** A DECIMAL(15, 2) column; {@code centsGetter} returns the unscaled value. */
    static <E> TpchColumnDefinition<E> decimal(String name, ToLongFunction<E> centsGetter)
    {
        return new TpchColumnDefinition<>(name, field(name, DECIMAL, Map.of()), (rows, vector) -> {
            DecimalVector target = (DecimalVector) vector;
            int count = rows.size();
            target.allocateNew(count);
            for (int i = 0; i < count; i++) {
                target.set(i, centsGetter.applyAsLong(rows.get(i)));
            }
            target.setValueCount(count);
        });
    }

    /** A DATE column; {@code epochDayGetter} returns days since 1970-01-01. */
    static <E> TpchColumnDefinition<E> date(String name, ToIntFunction<E> epochDayGetter)
    {
        return new TpchColumnDefinition<>(name, field(name, DATE, Map.of()), (rows, vector) -> {
            DateDayVector target = (DateDayVector) vector;
            int count = rows.size();
            target.allocateNew(count);
            for (int i = 0; i < count; i++) {
                target.set(i, epochDayGetter.applyAsInt(rows.get(i)));
            }
            target.setValueCount(count);
        });
    }

    static <E> TpchColumnDefinition<E> varchar(String name, int length, Function<E, String> getter)
    {
        Map<String, String> metadata = Map.of(TYPE_METADATA_KEY, "VARCHAR(" + length + ")");
        return new TpchColumnDefinition<>(name, field(name, ArrowType.Utf8.INSTANCE, metadata), (rows, vector) -> writeVarchar(rows, (VarCharVector) vector, getter));
    }

    /**
     * Copies characters straight into the data buffer: generated text is ASCII, so each char is one
     * byte and a first pass over the lengths sizes the buffer exactly. Any other text takes the
     * UTF-8 encoder and grows the buffer.
     */
    private static <E> void writeVarchar(List<E> rows, VarCharVector target, Function<E, String> getter)
    {
        int count = rows.size();
        long totalChars = 0;
        for (int i = 0; i < count; i++) {
            totalChars += getter.apply(rows.get(i)).length();
        }
        target.allocateNew(Math.max(totalChars, 1), count);
        ArrowBuf offsets = target.getOffsetBuffer();
        ArrowBuf data = target.getDataBuffer();
        long offset = 0;
        for (int i = 0; i < count; i++) {
            String value = getter.apply(rows.get(i));
            int length = value.length();
            // only after non-ASCII text can the first pass's size be too small
            while (data.capacity() < offset + length) {
                target.reallocDataBuffer();
                data = target.getDataBuffer();
            }
            int written = 0;
            while (written < length) {
                char character = value.charAt(written);
                if (character >= 0x80) {
                    break;
                }
                data.setByte(offset + written, character);
                written++;
            }
            if (written < length) {
                byte[] bytes = value.getBytes(UTF_8);
                while (data.capacity() < offset + bytes.length) {
                    target.reallocDataBuffer();
                    data = target.getDataBuffer();
                }
                data.setBytes(offset, bytes);
                written = bytes.length;
            }
            offset += written;
            offsets.setInt((long) (i + 1) * BaseVariableWidthVector.OFFSET_WIDTH, Math.toIntExact(offset));
        }
        setAllValid(target.getValidityBuffer(), count);
        target.setLastSet(count - 1);
        target.setValueCount(count);
    }

    private static void setAllValid(ArrowBuf validity, int count)
    {
        int fullBytes = count / 8;
        validity.setOne(0, fullBytes);
        for (int i = fullBytes * 8; i < count; i++) {
            BitVectorHelper.setBit(validity, i);
        }
    }

    private static Field field(String name, ArrowType type, Map<String, String> metadata)
    {
        return new Field(name, new FieldType(false, type, null, metadata.isEmpty() ? null : metadata), null);
    }

    @FunctionalInterface
    private interface VectorWriter<E>
    {
        void write(List<E> rows, FieldVector vector);
    }
}
