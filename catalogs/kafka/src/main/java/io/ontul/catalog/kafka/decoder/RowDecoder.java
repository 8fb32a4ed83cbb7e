package io.ontul.catalog.kafka.decoder;

import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Turns the key and value of one Kafka record into one row of Arrow vectors.
 * <p>
 * Protocol: a decoder is used by one thread at a time. For each record the caller passes the
 * vectors of the batch it is building, one per {@link #columns()} entry in that order ({@code null}
 * for a column it does not want: the value is still checked, so the same records are malformed
 * whatever columns a query reads), and the row to write. On return every non-null vector has
 * that row set, to a value or to null. After a {@link MalformedRecordException} the row may be
 * partly written: the caller must not count it, and writes the next record into the same row.
 */
public interface RowDecoder
{
    /** The columns the decoder fills: the table's declared columns. */
    List<Field> columns();

    void decode(byte[] key, byte[] value, FieldVector[] vectors, int row)
            throws MalformedRecordException;
}
