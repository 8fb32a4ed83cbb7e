package io.ontul.catalog.iceberg.read;

import org.apache.arrow.vector.FieldVector;

/**
 * Fills Arrow vectors from a {@link ParquetPageDecoder}, a run of rows of one page at a time:
 * null flags first, then the values of the non-null rows in one call, then one tight loop that
 * stores them. Implementations convert from the file's physical type to the table column's Arrow
 * type.
 */
abstract class ParquetBulkLoader<V extends FieldVector>
{
    private final Class<V> vectorClass;
    private boolean[] nulls = new boolean[0];

    ParquetBulkLoader(Class<V> vectorClass)
    {
        this.vectorClass = vectorClass;
    }

    final void load(ParquetPageDecoder decoder, FieldVector vector, int rows)
    {
        V output = vectorClass.cast(vector);
        allocate(output, rows);
        if (nulls.length < rows) {
            nulls = new boolean[rows];
        }
        int done = 0;
        while (done < rows) {
            int count = decoder.nextRun(rows - done);
            int present = decoder.readNulls(count, nulls);
            fill(decoder, output, done, count, present, nulls);
            done += count;
        }
        output.setValueCount(rows);
    }

    void allocate(V vector, int rows)
    {
        vector.setInitialCapacity(rows);
        vector.allocateNew();
    }

    /**
     * Stores rows {@code first .. first + count - 1}: {@code nulls[i]} says whether row
     * {@code first + i} is null; {@code present} values are to be taken from the decoder.
     */
    abstract void fill(ParquetPageDecoder decoder, V vector, int first, int count, int present, boolean[] nulls);
}
