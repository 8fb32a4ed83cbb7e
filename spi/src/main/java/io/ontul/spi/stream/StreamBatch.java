package io.ontul.spi.stream;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * What one {@link StreamReader#poll} returned: the rows read (possibly none) and, for every split
 * that moved, its position right after them. Restarting each split at these positions reads
 * exactly the records after this batch.
 *
 * @param batch the rows, owned by the caller, or null when the poll found nothing
 * @param positions split id to position after the batch; splits that did not move may be absent
 * @param maxEventTimes for tables with a {@link WatermarkDeclaration}: split id to the greatest
 * event time (epoch microseconds) among the records of this poll, read from every record before
 * any filter; splits without records (or only NULL times) are absent
 * @param rejected the records of this poll that could not be decoded (counted in
 * {@link StreamReader#rejectedRecords()} too); their positions advanced like the others'
 */
public record StreamBatch(VectorSchemaRoot batch, Map<String, byte[]> positions, Map<String, Long> maxEventTimes, List<RejectedRecord> rejected)
{
    public StreamBatch
    {
        positions = Map.copyOf(requireNonNull(positions, "positions is null"));
        maxEventTimes = Map.copyOf(requireNonNull(maxEventTimes, "maxEventTimes is null"));
        rejected = List.copyOf(requireNonNull(rejected, "rejected is null"));
    }

    /** A batch of a table without event time, all of whose records were decoded. */
    public StreamBatch(VectorSchemaRoot batch, Map<String, byte[]> positions)
    {
        this(batch, positions, Map.of(), List.of());
    }

    public int rowCount()
    {
        return batch == null ? 0 : batch.getRowCount();
    }
}
