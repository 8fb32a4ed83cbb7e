package io.ontul.engine.operator.join;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.SpillRunsReader;
import io.ontul.exchange.spill.SpillRun;

/**
 * The spilled rows of one side of one join partition: spill runs read back in order, with the
 * number of rows, the bytes they took in memory before they were written (the figure that
 * decides whether the partition fits; the runs' own sizes are compressed) and, by column, the
 * bytes of values of variable-width columns (0 for others; empty when no row was written), so
 * that one batch for all the rows can be allocated up front.
 */
record JoinPartitionRuns(List<SpillRun> runs, long rows, long memoryBytes, long[] valueBytes)
{
    static final JoinPartitionRuns EMPTY = new JoinPartitionRuns(List.of(), 0, 0, new long[0]);

    JoinPartitionRuns
    {
        runs = List.copyOf(requireNonNull(runs, "runs is null"));
        valueBytes = requireNonNull(valueBytes, "valueBytes is null").clone();
    }

    static JoinPartitionRuns concat(List<JoinPartitionRuns> parts)
    {
        List<SpillRun> runs = new ArrayList<>();
        long rows = 0;
        long bytes = 0;
        long[] valueBytes = new long[0];
        for (JoinPartitionRuns part : parts) {
            runs.addAll(part.runs());
            rows += part.rows();
            bytes += part.memoryBytes();
            if (valueBytes.length < part.valueBytes().length) {
                valueBytes = java.util.Arrays.copyOf(valueBytes, part.valueBytes().length);
            }
            for (int c = 0; c < part.valueBytes().length; c++) {
                valueBytes[c] += part.valueBytes()[c];
            }
        }
        return new JoinPartitionRuns(runs, rows, bytes, valueBytes);
    }

    /** Reads every run in order; the batches belong to the caller. */
    Operator open(OperatorContext context)
    {
        return new SpillRunsReader(context, runs);
    }

    /** Deletes the runs' files (idempotent). */
    void delete()
    {
        runs.forEach(SpillRun::delete);
    }
}
