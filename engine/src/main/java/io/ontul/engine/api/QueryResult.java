package io.ontul.engine.api;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The result of one statement, streamed batch by batch.
 * <p>
 * Protocol: read {@link #schema()} (known before any row is produced), then call
 * {@link #nextBatch()} until it returns null, then {@link #close()}. Each batch is owned by the
 * result and is valid only until the next call to {@code nextBatch} or {@code close}; copy what
 * you keep. Closing early cancels the query and releases its memory. Errors surface as
 * {@link io.ontul.spi.OntulException} from {@code nextBatch}.
 * <p>
 * Statements that change data (INSERT, CTAS, CREATE/DROP) return one batch with a single BIGINT
 * column {@code rows} and {@link #isUpdate()} true.
 */
public interface QueryResult
        extends AutoCloseable
{
    String queryId();

    Schema schema();

    boolean isUpdate();

    /** The next batch, or null when there are no more rows. */
    VectorSchemaRoot nextBatch();

    /**
     * Asks the running query to stop; safe to call from any thread, at any time, more than once.
     * Operators notice at their next batch boundary; the reading thread's {@code nextBatch} then
     * fails with QUERY_CANCELLED. The caller must still {@link #close()} the result.
     */
    default void cancel() {}

    /**
     * Bytes (Arrow buffers) the statement received from other nodes of the cluster so far: what a
     * worker's fragment read from its peers, which it reports to its coordinator at its end.
     */
    default long exchangedBytes()
    {
        return 0;
    }

    @Override
    void close();
}
