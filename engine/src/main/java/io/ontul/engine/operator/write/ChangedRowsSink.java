package io.ontul.engine.operator.write;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.engine.operator.VectorGather;
import io.ontul.spi.BatchSink;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The write of a DELETE, UPDATE or MERGE: its query returns every row the table will hold and
 * those it drops, each with what happens to it ({@link #KEEP}, {@link #CHANGE}, {@link #REMOVE},
 * {@link #DISCARD}) and, for MERGE, how many source rows matched its target row. This sink passes
 * the rows kept to the connector's overwriting sink, counts the rows changed (updated, inserted or
 * deleted: the statement's update count), and fails the statement when a target row matched more
 * than one source row of a MERGE, before anything is committed.
 */
public final class ChangedRowsSink
        implements BatchSink
{
    /** Kept as it is. */
    public static final int KEEP = 0;
    /** Kept and counted: updated or inserted. */
    public static final int CHANGE = 1;
    /** Left out and counted: deleted. */
    public static final int REMOVE = 2;
    /** Left out, not counted: a MERGE source row no clause inserts. */
    public static final int DISCARD = 3;

    private final BatchSink table;
    private final int columns;
    private final boolean countsMatches;
    private final String target;
    private final BufferAllocator allocator;
    private final AtomicLong changed = new AtomicLong();

    /**
     * @param table the connector's overwriting sink
     * @param columns how many leading columns are the table's; the action follows them, then (for
     *        MERGE, {@code countsMatches}) the count of source rows matching the row's target row
     * @param target the table's name, for the error of a MERGE
     */
    public ChangedRowsSink(BatchSink table, int columns, boolean countsMatches, String target, BufferAllocator allocator)
    {
        this.table = requireNonNull(table, "table is null");
        this.columns = columns;
        this.countsMatches = countsMatches;
        this.target = requireNonNull(target, "target is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    @Override
    public void append(VectorSchemaRoot batch)
    {
        int rows = batch.getRowCount();
        IntVector actions = (IntVector) batch.getVector(columns);
        BigIntVector matches = countsMatches ? (BigIntVector) batch.getVector(columns + 1) : null;
        int[] kept = new int[rows];
        int keptCount = 0;
        long changedHere = 0;
        for (int row = 0; row < rows; row++) {
            if (matches != null && !matches.isNull(row) && matches.get(row) > 1) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, "MERGE: a row of table '" + target + "' matches " + matches.get(row)
                        + " rows of the source; each target row may match at most one (make the ON condition match one source row, or aggregate the source)");
            }
            int action = actions.get(row);
            if (action == KEEP || action == CHANGE) {
                kept[keptCount++] = row;
            }
            if (action == CHANGE || action == REMOVE) {
                changedHere++;
            }
        }
        changed.addAndGet(changedHere);
        if (keptCount == 0) {
            return;
        }
        List<FieldVector> vectors = batch.getFieldVectors().subList(0, columns);
        if (keptCount == rows) {
            List<Field> fields = vectors.stream().map(FieldVector::getField).toList();
            table.append(new VectorSchemaRoot(fields, vectors, rows));
            return;
        }
        List<FieldVector> gathered = new ArrayList<>(columns);
        try {
            for (FieldVector vector : vectors) {
                FieldVector copy = vector.getField().createVector(allocator);
                gathered.add(copy);
                copy.setInitialCapacity(keptCount);
                copy.allocateNew();
                VectorGather.gather(vector, kept, keptCount, copy);
                copy.setValueCount(keptCount);
            }
            try (VectorSchemaRoot keptRows = new VectorSchemaRoot(gathered.stream().map(FieldVector::getField).toList(), gathered, keptCount)) {
                gathered = List.of();
                table.append(keptRows);
            }
        }
        finally {
            gathered.forEach(FieldVector::close);
        }
    }

    /** Commits the table's new rows; returns the rows changed, not the rows written. */
    @Override
    public long commit()
    {
        table.commit();
        return changed.get();
    }

    @Override
    public void abort()
    {
        table.abort();
    }
}
