package io.ontul.catalog.iceberg.read;

import org.apache.arrow.vector.FieldVector;
import org.apache.parquet.column.ColumnReader;

/**
 * Copies the values of one Parquet column chunk into Arrow vectors, batch after batch: each
 * {@link #load} reads the next {@code rowCount} values of the column reader into a freshly
 * allocated vector, leaving out the rows marked deleted. Implementations convert from the file's
 * physical type to the Arrow type of the table column.
 */
abstract class ParquetColumnLoader<V extends FieldVector>
{
    private final Class<V> vectorClass;

    ParquetColumnLoader(Class<V> vectorClass)
    {
        this.vectorClass = vectorClass;
    }

    /**
     * @param deleted null, or for each of the {@code rowCount} rows whether it is deleted
     * @param keptRows the number of rows not deleted: the value count of the vector
     */
    void load(ColumnReader reader, FieldVector vector, int rowCount, boolean[] deleted, int keptRows)
    {
        V output = vectorClass.cast(vector);
        allocate(output, keptRows);
        int maxDefinitionLevel = reader.getDescriptor().getMaxDefinitionLevel();
        int index = 0;
        for (int row = 0; row < rowCount; row++) {
            boolean present = reader.getCurrentDefinitionLevel() == maxDefinitionLevel;
            if (deleted != null && deleted[row]) {
                if (present) {
                    reader.skip();
                }
            }
            else {
                if (present) {
                    read(reader, output, index);
                }
                else {
                    output.setNull(index);
                }
                index++;
            }
            reader.consume();
        }
        output.setValueCount(keptRows);
    }

    void allocate(V vector, int rows)
    {
        vector.setInitialCapacity(rows);
        vector.allocateNew();
    }

    /** Reads the current (non-null) value of the reader into {@code index}. */
    abstract void read(ColumnReader reader, V vector, int index);

    /** Reads the current (non-null) value into {@code index} of a vector whose capacity holds it: the element of a list. */
    final void readElement(ColumnReader reader, FieldVector vector, int index)
    {
        read(reader, vectorClass.cast(vector), index);
    }
}
