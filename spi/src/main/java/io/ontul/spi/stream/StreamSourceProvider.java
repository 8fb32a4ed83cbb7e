package io.ontul.spi.stream;

import java.util.List;
import java.util.Optional;

import org.apache.arrow.memory.BufferAllocator;

import io.ontul.spi.TableHandle;

/**
 * Continuous reads of a table, for streaming jobs. The protocol, driven by the job's coordinator:
 * <ol>
 * <li>{@link #splits} lists the table's splits with their startup positions;</li>
 * <li>the coordinator picks each split's position: the one saved in the latest complete
 * checkpoint if there is one, the split's start position otherwise, and assigns splits to
 * tasks itself — a connector never rebalances splits behind the engine's back (for Kafka: assign
 * and seek, no consumer-group membership);</li>
 * <li>each task calls {@link #open} with its splits and positions and polls the reader.</li>
 * </ol>
 * Positions are opaque bytes that only the connector interprets (for Kafka: the next offset to
 * read, as 8 bytes); the engine stores them in checkpoints and passes them back unchanged.
 */
public interface StreamSourceProvider
{
    /** The table's splits now, with the position a job starts from when it has none saved. */
    List<StreamSplit> splits(TableHandle table);

    /**
     * Opens a reader of the given splits, each at its position.
     *
     * @param columns the columns batches hold, in this order (as {@code ScanSpec.columns()})
     * @param allocator where batches are allocated; it belongs to the job
     */
    StreamReader open(TableHandle table, List<String> columns, List<StreamSplit> splits, BufferAllocator allocator);

    /**
     * How the table's event time and watermarks are declared, if they are. When present, a
     * reader opened with the declared column among its columns reports each poll's greatest
     * event time per split ({@link StreamBatch#maxEventTimes()}).
     */
    default Optional<WatermarkDeclaration> watermark(TableHandle table)
    {
        return Optional.empty();
    }
}
