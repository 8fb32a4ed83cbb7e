package io.ontul.engine.stream.shuffle;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.operator.Columns;

/**
 * Key groups, as Flink has them: a keyed job's keys are hashed into {@code maxParallelism} key
 * groups, fixed for the life of the job, and each task of the keyed operator owns a contiguous
 * range of groups. A key's group never changes, so when the job's parallelism changes the state
 * of each group moves whole to its new task ({@link #taskOf}); the group is computed the same way
 * from input rows and from the state rows a checkpoint holds (the keys first, in the same types).
 */
public final class KeyGroups
{
    /** The default number of key groups (option 'max-parallelism'): the most tasks a keyed job can ever have. */
    public static final int DEFAULT_MAX_PARALLELISM = 128;
    /** Seed of the key-group hash; never change it: checkpoints hold state by key group. */
    private static final long SEED = 0x5EED_6A0B;

    private final int[] keyColumns;
    private final int maxParallelism;

    /**
     * @param keyColumns the columns of the key in the rows this hashes
     * @param maxParallelism the number of key groups
     */
    public KeyGroups(int[] keyColumns, int maxParallelism)
    {
        this.keyColumns = requireNonNull(keyColumns, "keyColumns is null").clone();
        if (maxParallelism < 1) {
            throw new IllegalArgumentException("maxParallelism must be positive: " + maxParallelism);
        }
        this.maxParallelism = maxParallelism;
    }

    public int maxParallelism()
    {
        return maxParallelism;
    }

    /** The key group of every row of {@code batch}, in [0, maxParallelism). */
    public int[] keyGroups(VectorSchemaRoot batch)
    {
        int rows = batch.getRowCount();
        long[] hashes = new long[rows];
        for (int column : keyColumns) {
            FieldVector vector = batch.getVector(column);
            if (vector instanceof org.apache.arrow.vector.BaseVariableWidthVector text) {
                // text as hashed when the checkpoints' key groups were made (Columns hashes text faster now)
                for (int row = 0; row < rows; row++) {
                    hashes[row] = hashes[row] * 31 + (text.isNull(row) ? Columns.NULL_HASH
                            : Columns.legacyTextHash(text.getDataBuffer(), text.getStartOffset(row), text.getEndOffset(row)));
                }
            }
            else {
                Columns.hashInto(vector, rows, hashes);
            }
        }
        int[] groups = new int[rows];
        for (int row = 0; row < rows; row++) {
            // the high 32 bits scaled to [0, maxParallelism)
            groups[row] = (int) (((Columns.remix(hashes[row], SEED) >>> 32) * maxParallelism) >>> 32);
        }
        return groups;
    }

    /** The task, of {@code parallelism}, that owns every row's key group. */
    public int[] tasks(VectorSchemaRoot batch, int parallelism)
    {
        int[] groups = keyGroups(batch);
        for (int row = 0; row < groups.length; row++) {
            groups[row] = taskOf(groups[row], maxParallelism, parallelism);
        }
        return groups;
    }

    /** The task that owns {@code keyGroup}: task i owns the groups [ceil(i * max / p), ceil((i + 1) * max / p)). */
    public static int taskOf(int keyGroup, int maxParallelism, int parallelism)
    {
        return (int) ((long) keyGroup * parallelism / maxParallelism);
    }
}
