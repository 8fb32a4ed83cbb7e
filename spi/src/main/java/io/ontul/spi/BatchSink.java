package io.ontul.spi;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes the rows of one statement into one table. {@link #append} may be called from several
 * threads at once; then exactly one of {@link #commit()} or {@link #abort()} is called. Rows
 * become visible to queries atomically in commit; abort leaves the table as it was.
 */
public interface BatchSink
{
    /**
     * Appends rows. The batch has the table's columns in order; the caller keeps ownership of
     * the batch and may reuse it after this returns (the sink copies or transfers what it keeps).
     */
    void append(VectorSchemaRoot batch);

    /** Makes all appended rows visible. Returns the number of rows written. */
    long commit();

    /** Discards all appended rows and releases their memory. */
    void abort();
}
