package io.ontul.catalog.iceberg.read;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.EnumSet;
import java.util.Set;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.io.api.Binary;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Decodes the pages of one column chunk of a flat column in bulk: the definition levels of a run
 * of rows into null flags, then the values of the non-null rows into a primitive array, PLAIN or
 * dictionary encoded, from v1 or v2 data pages. These are the encodings Iceberg's, Spark's and
 * Trino's writers use; a chunk with any other encoding is read with Parquet's column reader
 * instead (see {@link #supports}).
 * <p>
 * Protocol: {@link #nextRun} gives how many of the wanted rows the current page still holds
 * (reading the next page when it is exhausted); then {@link #readNulls} for those rows, then one
 * of the value methods for the count of non-null rows it returned.
 */
final class ParquetPageDecoder
{
    private static final Set<Encoding> SUPPORTED = EnumSet.of(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY, Encoding.RLE, Encoding.BIT_PACKED);

    private final ColumnDescriptor descriptor;
    private final PageReader pages;
    private final int maxDefinitionLevel;
    private final Dictionary dictionary;
    private long[] dictionaryLongs;
    private int[] dictionaryInts;
    private float[] dictionaryFloats;
    private double[] dictionaryDoubles;
    private byte[][] dictionaryBinaries;

    private int remainingInPage;
    private RleBitPackedDecoder definitionLevels;
    private RleBitPackedDecoder dictionaryIds;
    private ByteBuffer plainValues;

    private int[] levels = new int[0];
    private int[] ids = new int[0];
    private long[] longs = new long[0];
    private int[] ints = new int[0];
    private float[] floats = new float[0];
    private double[] doubles = new double[0];

    ParquetPageDecoder(ColumnDescriptor descriptor, PageReader pages)
    {
        this.descriptor = descriptor;
        this.pages = pages;
        this.maxDefinitionLevel = descriptor.getMaxDefinitionLevel();
        DictionaryPage dictionaryPage = pages.readDictionaryPage();
        try {
            this.dictionary = dictionaryPage == null ? null : dictionaryPage.getEncoding().initDictionary(descriptor, dictionaryPage);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether a column chunk with these encodings can be decoded here. */
    static boolean supports(ColumnDescriptor descriptor, Set<Encoding> encodings)
    {
        return descriptor.getMaxRepetitionLevel() == 0 && SUPPORTED.containsAll(encodings);
    }

    /** How many of {@code wanted} rows to read next, all from the current page. */
    int nextRun(int wanted)
    {
        while (remainingInPage == 0) {
            DataPage page = pages.readPage();
            if (page == null) {
                throw new IllegalStateException("column " + descriptor + " has fewer values than its row group");
            }
            open(page);
        }
        return Math.min(wanted, remainingInPage);
    }

    /** Reads the levels of {@code count} rows into {@code nulls}; returns how many are not null. */
    int readNulls(int count, boolean[] nulls)
    {
        remainingInPage -= count;
        if (definitionLevels == null) {
            for (int i = 0; i < count; i++) {
                nulls[i] = false;
            }
            return count;
        }
        if (levels.length < count) {
            levels = new int[Math.max(count, levels.length * 2)];
        }
        definitionLevels.read(levels, 0, count);
        int present = 0;
        for (int i = 0; i < count; i++) {
            boolean isNull = levels[i] != maxDefinitionLevel;
            nulls[i] = isNull;
            present += isNull ? 0 : 1;
        }
        return present;
    }

    long[] longs(int count)
    {
        if (longs.length < count) {
            longs = new long[Math.max(count, longs.length * 2)];
        }
        if (plainValues != null) {
            plainValues.asLongBuffer().get(longs, 0, count);
            plainValues.position(plainValues.position() + count * Long.BYTES);
        }
        else {
            long[] values = dictionaryLongs();
            int[] indices = ids(count);
            for (int i = 0; i < count; i++) {
                longs[i] = values[indices[i]];
            }
        }
        return longs;
    }

    int[] ints(int count)
    {
        if (ints.length < count) {
            ints = new int[Math.max(count, ints.length * 2)];
        }
        if (plainValues != null) {
            plainValues.asIntBuffer().get(ints, 0, count);
            plainValues.position(plainValues.position() + count * Integer.BYTES);
        }
        else {
            int[] values = dictionaryInts();
            int[] indices = ids(count);
            for (int i = 0; i < count; i++) {
                ints[i] = values[indices[i]];
            }
        }
        return ints;
    }

    float[] floats(int count)
    {
        if (floats.length < count) {
            floats = new float[Math.max(count, floats.length * 2)];
        }
        if (plainValues != null) {
            plainValues.asFloatBuffer().get(floats, 0, count);
            plainValues.position(plainValues.position() + count * Float.BYTES);
        }
        else {
            float[] values = dictionaryFloats();
            int[] indices = ids(count);
            for (int i = 0; i < count; i++) {
                floats[i] = values[indices[i]];
            }
        }
        return floats;
    }

    double[] doubles(int count)
    {
        if (doubles.length < count) {
            doubles = new double[Math.max(count, doubles.length * 2)];
        }
        if (plainValues != null) {
            plainValues.asDoubleBuffer().get(doubles, 0, count);
            plainValues.position(plainValues.position() + count * Double.BYTES);
        }
        else {
            double[] values = dictionaryDoubles();
            int[] indices = ids(count);
            for (int i = 0; i < count; i++) {
                doubles[i] = values[indices[i]];
            }
        }
        return doubles;
    }

    /**
     * Binary values: calls {@code target} once per value with the bytes, in order; PLAIN values
     * are passed as a window of the page buffer, dictionary values as the entry's bytes.
     */
    void binaries(int count, BinaryTarget target)
    {
        if (plainValues != null) {
            ByteBuffer buffer = plainValues;
            for (int i = 0; i < count; i++) {
                int length = buffer.getInt();
                int position = buffer.position();
                target.accept(i, buffer, position, length);
                buffer.position(position + length);
            }
            return;
        }
        byte[][] values = dictionaryBinaries();
        int[] indices = ids(count);
        for (int i = 0; i < count; i++) {
            target.accept(i, values[indices[i]]);
        }
    }

    interface BinaryTarget
    {
        void accept(int index, ByteBuffer buffer, int position, int length);

        void accept(int index, byte[] bytes);
    }

    private int[] ids(int count)
    {
        if (ids.length < count) {
            ids = new int[Math.max(count, ids.length * 2)];
        }
        dictionaryIds.read(ids, 0, count);
        return ids;
    }

    private void open(DataPage page)
    {
        try {
            ByteBuffer values;
            Encoding encoding;
            if (page instanceof DataPageV1 v1) {
                ByteBuffer bytes = v1.getBytes().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
                definitionLevels = null;
                if (maxDefinitionLevel > 0) {
                    if (v1.getDlEncoding() != Encoding.RLE) {
                        throw unsupported("definition levels encoded " + v1.getDlEncoding());
                    }
                    int length = bytes.getInt(bytes.position());
                    ByteBuffer levelBytes = bytes.duplicate();
                    levelBytes.position(bytes.position() + 4).limit(bytes.position() + 4 + length);
                    definitionLevels = new RleBitPackedDecoder(levelBytes, RleBitPackedDecoder.bitWidth(maxDefinitionLevel));
                    bytes.position(bytes.position() + 4 + length);
                }
                values = bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
                encoding = v1.getValueEncoding();
            }
            else {
                DataPageV2 v2 = (DataPageV2) page;
                definitionLevels = maxDefinitionLevel > 0 ? new RleBitPackedDecoder(v2.getDefinitionLevels().toByteBuffer(), RleBitPackedDecoder.bitWidth(maxDefinitionLevel)) : null;
                values = v2.getData().toByteBuffer().slice().order(ByteOrder.LITTLE_ENDIAN);
                encoding = v2.getDataEncoding();
            }
            if (encoding == Encoding.PLAIN) {
                plainValues = values;
                dictionaryIds = null;
            }
            else if (encoding == Encoding.PLAIN_DICTIONARY || encoding == Encoding.RLE_DICTIONARY) {
                if (dictionary == null) {
                    throw unsupported("a dictionary-encoded page without a dictionary");
                }
                int bitWidth = values.get() & 0xFF;
                dictionaryIds = new RleBitPackedDecoder(values, bitWidth);
                plainValues = null;
            }
            else {
                throw unsupported("values encoded " + encoding);
            }
            remainingInPage = page.getValueCount();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private OntulException unsupported(String what)
    {
        return OntulException.userError(ErrorCode.NOT_SUPPORTED, "Parquet column %s has %s, which Ontul cannot read", descriptor, what);
    }

    private long[] dictionaryLongs()
    {
        if (dictionaryLongs == null) {
            dictionaryLongs = new long[dictionary.getMaxId() + 1];
            for (int id = 0; id < dictionaryLongs.length; id++) {
                dictionaryLongs[id] = dictionary.decodeToLong(id);
            }
        }
        return dictionaryLongs;
    }

    private int[] dictionaryInts()
    {
        if (dictionaryInts == null) {
            dictionaryInts = new int[dictionary.getMaxId() + 1];
            for (int id = 0; id < dictionaryInts.length; id++) {
                dictionaryInts[id] = dictionary.decodeToInt(id);
            }
        }
        return dictionaryInts;
    }

    private float[] dictionaryFloats()
    {
        if (dictionaryFloats == null) {
            dictionaryFloats = new float[dictionary.getMaxId() + 1];
            for (int id = 0; id < dictionaryFloats.length; id++) {
                dictionaryFloats[id] = dictionary.decodeToFloat(id);
            }
        }
        return dictionaryFloats;
    }

    private double[] dictionaryDoubles()
    {
        if (dictionaryDoubles == null) {
            dictionaryDoubles = new double[dictionary.getMaxId() + 1];
            for (int id = 0; id < dictionaryDoubles.length; id++) {
                dictionaryDoubles[id] = dictionary.decodeToDouble(id);
            }
        }
        return dictionaryDoubles;
    }

    private byte[][] dictionaryBinaries()
    {
        if (dictionaryBinaries == null) {
            dictionaryBinaries = new byte[dictionary.getMaxId() + 1][];
            for (int id = 0; id < dictionaryBinaries.length; id++) {
                Binary value = dictionary.decodeToBinary(id);
                dictionaryBinaries[id] = value.getBytes();
            }
        }
        return dictionaryBinaries;
    }
}
