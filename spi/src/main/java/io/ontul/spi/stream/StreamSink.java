package io.ontul.spi.stream;

import java.util.List;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The writing side of a streaming job into one table, committed in two phases per checkpoint.
 * The protocol for checkpoint N:
 * <ol>
 * <li>{@link #write} rows any number of times (from the job's task thread);</li>
 * <li>on barrier N, {@link #prepareCommit}{@code (N)}: make every row written since the previous
 * barrier durable but invisible (flush and close files) and return a committable that describes
 * them; then writing continues towards N + 1;</li>
 * <li>the engine stores the committables in checkpoint N; once the checkpoint is complete it
 * calls {@link #commit}{@code (N, committables)}, which makes the rows visible atomically;</li>
 * <li>after a crash, the restarted job calls {@code commit} again with the committables of its
 * latest complete checkpoint, on a new sink instance.</li>
 * </ol>
 * {@code commit} MUST be idempotent across sink instances and processes: when checkpoint N (or a
 * later one) of the same job is already in the table, it does nothing. Rows written after the
 * last {@code prepareCommit} are discarded by {@link #abort} or by a crash; the job replays them
 * from the checkpoint's source positions.
 */
public interface StreamSink
        extends AutoCloseable
{
    /** Appends rows with the table's columns in order. The caller keeps ownership of the batch. */
    void write(VectorSchemaRoot batch);

    /** Closes what was written since the previous barrier and describes it; never null (empty when nothing was written). */
    byte[] prepareCommit(long checkpointId);

    /** Makes the rows of the committables visible, exactly once per job and checkpoint. */
    void commit(long checkpointId, List<byte[]> committables);

    /** Discards what was written since the last {@link #prepareCommit}. */
    void abort();

    /** Releases resources; rows neither prepared nor committed are discarded. */
    @Override
    void close();
}
