package io.ontul.catalog.kafka.decoder;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * The raw format: columns {@code key} and {@code value} hold the record's bytes as text. The
 * engine has no binary type, so the bytes are read as UTF-8, with each malformed sequence replaced
 * by U+FFFD. A missing key or value (a tombstone) is NULL. Never malformed.
 */
public final class RawRowDecoder
        implements RowDecoder
{
    public static final List<Field> COLUMNS = List.of(
            new Field("key", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
            new Field("value", FieldType.nullable(ArrowType.Utf8.INSTANCE), null));

    private final Utf8Writer writer = new Utf8Writer();

    @Override
    public List<Field> columns()
    {
        return COLUMNS;
    }

    @Override
    public void decode(byte[] key, byte[] value, FieldVector[] vectors, int row)
    {
        write(vectors[0], row, key);
        write(vectors[1], row, value);
    }

    private void write(FieldVector vector, int row, byte[] bytes)
    {
        if (vector == null) {
            return;
        }
        if (bytes == null) {
            vector.setNull(row);
        }
        else {
            writer.write(vector, row, bytes);
        }
    }

    /** Writes bytes into a VARCHAR vector as valid UTF-8, replacing malformed sequences. */
    static final class Utf8Writer
    {
        void write(FieldVector vector, int row, byte[] bytes)
        {
            byte[] valid = isAscii(bytes) ? bytes : new String(bytes, UTF_8).getBytes(UTF_8);
            ((VarCharVector) vector).setSafe(row, valid);
        }

        private static boolean isAscii(byte[] bytes)
        {
            for (byte b : bytes) {
                if (b < 0) {
                    return false;
                }
            }
            return true;
        }
    }
}
