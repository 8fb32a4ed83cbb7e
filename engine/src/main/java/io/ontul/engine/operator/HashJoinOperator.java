package io.ontul.engine.operator;

import java.util.List;

import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.execution.QueryContext;
import io.ontul.engine.expression.ProjectionKernel;

/**
 * Probe side of a hash join (or of a nested-loop join when there are no keys). For each probe
 * batch: find candidate build rows by key hash, keep pairs whose keys are equal, materialise
 * them as joined rows (probe columns, then build columns) and apply the residual condition,
 * compiled as a kernel that yields one boolean per pair. Then emits per join type: unmatched
 * probe rows with NULLs (LEFT, FULL), probe rows with/without a match (SEMI, ANTI), and at the
 * end unmatched build rows (RIGHT, FULL; requires a single probe instance).
 */
public final class HashJoinOperator
        implements Operator
{
    private final QueryContext context;
    private final Operator probe;
    private final JoinBuild build;
    private final JoinType joinType;
    private final int[] probeKeys;
    private final boolean[] nullSafe;
    private final ProjectionKernel residual;
    private final Schema joinedSchema;
    private final Schema outputSchema;
    private final int probeColumnCount;
    private final java.util.ArrayDeque<VectorSchemaRoot> ready = new java.util.ArrayDeque<>();
    private boolean probeDone;
    private boolean finished;

    public HashJoinOperator(QueryContext context, Operator probe, JoinBuild build, JoinType joinType, int[] probeKeys, boolean[] nullSafe,
            ProjectionKernel residual, Schema joinedSchema, Schema outputSchema, int probeColumnCount)
    {
        this.context = context;
        this.probe = probe;
        this.build = build;
        this.joinType = joinType;
        this.probeKeys = probeKeys;
        this.nullSafe = nullSafe;
        this.residual = residual;
        this.joinedSchema = joinedSchema;
        this.outputSchema = outputSchema;
        this.probeColumnCount = probeColumnCount;
    }

    @Override
    public VectorSchemaRoot next()
    {
        build.ensureBuilt();
        while (ready.isEmpty()) {
            if (probeDone) {
                if (finished) {
                    return null;
                }
                finished = true;
                if (joinType.tracksBuildMatches() && build.finishProbe()) {
                    switch (joinType) {
                        case RIGHT_SEMI -> emitBuildRows(true);
                        case RIGHT_ANTI -> emitBuildRows(false);
                        default -> emitUnmatchedBuildRows();
                    }
                }
                continue;
            }
            VectorSchemaRoot batch = probe.next();
            if (batch == null) {
                probeDone = true;
                continue;
            }
            try (batch) {
                context.checkCancelled();
                processProbeBatch(batch);
            }
        }
        return ready.poll();
    }

    private void processProbeBatch(VectorSchemaRoot batch)
    {
        int rows = batch.getRowCount();
        FieldVector[] keys = new FieldVector[probeKeys.length];
        for (int k = 0; k < probeKeys.length; k++) {
            keys[k] = batch.getVector(probeKeys[k]);
        }
        boolean[] probeMatched = new boolean[rows];
        PairBuffer pairs = new PairBuffer();
        if (build.hasSingleLongKey() && Columns.isLongLike(keys[0])) {
            long[] values = Columns.longs(keys[0], rows);
            boolean nulls = keys[0].getNullCount() > 0;
            for (int row = 0; row < rows; row++) {
                if (nulls && keys[0].isNull(row)) {
                    continue;
                }
                for (int candidate = build.findKey(values[row]); candidate >= 0; candidate = build.next(candidate)) {
                    pairs.add(row, candidate);
                    if (pairs.size() >= Batches.TARGET_ROWS) {
                        flushPairs(batch, pairs, probeMatched);
                    }
                }
            }
            finishProbeBatch(batch, pairs, probeMatched);
            return;
        }
        long[] hashes = new long[rows];
        for (FieldVector key : keys) {
            Columns.hashInto(key, rows, hashes);
        }
        long[][] probeLongs = new long[keys.length][];
        long[][] buildLongs = new long[keys.length][];
        for (int k = 0; k < keys.length; k++) {
            buildLongs[k] = build.longKeys(k);
            if (buildLongs[k] != null && Columns.isLongLike(keys[k])) {
                probeLongs[k] = Columns.longs(keys[k], rows);
            }
            else {
                buildLongs[k] = null;
            }
        }
        for (int row = 0; row < rows; row++) {
            if (hasExcludedNull(keys, row)) {
                continue;
            }
            for (int candidate = build.head(Columns.mix(hashes[row])); candidate >= 0; candidate = build.next(candidate)) {
                if (keysEqual(keys, probeLongs, buildLongs, row, candidate)) {
                    pairs.add(row, candidate);
                    if (pairs.size() >= Batches.TARGET_ROWS) {
                        flushPairs(batch, pairs, probeMatched);
                    }
                }
            }
        }
        finishProbeBatch(batch, pairs, probeMatched);
    }

    private void finishProbeBatch(VectorSchemaRoot batch, PairBuffer pairs, boolean[] probeMatched)
    {
        flushPairs(batch, pairs, probeMatched);
        switch (joinType) {
            case LEFT, FULL -> emitProbeRows(batch, probeMatched, false, true);
            case SEMI -> emitProbeRows(batch, probeMatched, true, false);
            case ANTI -> emitProbeRows(batch, probeMatched, false, false);
            default -> { }
        }
    }

    private boolean hasExcludedNull(FieldVector[] keys, int row)
    {
        for (int k = 0; k < keys.length; k++) {
            if (!nullSafe[k] && keys[k].isNull(row)) {
                return true;
            }
        }
        return false;
    }

    private boolean keysEqual(FieldVector[] keys, long[][] probeLongs, long[][] buildLongs, int row, int candidate)
    {
        int[] buildKeys = build.keyColumns();
        for (int k = 0; k < keys.length; k++) {
            if (probeLongs[k] != null && !nullSafe[k]) {
                // nulls never reach here: rows with a NULL key are skipped on both sides
                if (probeLongs[k][row] != buildLongs[k][candidate]) {
                    return false;
                }
            }
            else if (!Columns.equal(keys[k], row, build.vector(candidate, buildKeys[k]), build.rowInBatch(candidate))) {
                return false;
            }
        }
        return true;
    }

    private void flushPairs(VectorSchemaRoot probeBatch, PairBuffer pairs, boolean[] probeMatched)
    {
        int count = pairs.size();
        if (count == 0) {
            return;
        }
        if (residual == null && joinType.outputsOneSide()) {
            // only the match flags matter: no joined rows to build
            int[] probeRows = pairs.probeRows();
            int[] buildRows = pairs.buildRows();
            boolean trackBuild = joinType.tracksBuildMatches();
            for (int i = 0; i < count; i++) {
                probeMatched[probeRows[i]] = true;
                if (trackBuild) {
                    build.markMatched(buildRows[i]);
                }
            }
            pairs.clear();
            return;
        }
        VectorSchemaRoot joined = materialize(probeBatch, pairs);
        pairs.clear();
        boolean[] passed = new boolean[count];
        if (residual == null) {
            java.util.Arrays.fill(passed, true);
        }
        else {
            try (BitVector mask = (BitVector) new Field("mask", org.apache.arrow.vector.types.pojo.FieldType.nullable(org.apache.arrow.vector.types.pojo.ArrowType.Bool.INSTANCE), null).createVector(context.allocator())) {
                mask.allocateNew(count);
                residual.process(joined.getFieldVectors().toArray(new FieldVector[0]), new FieldVector[] {mask}, count);
                for (int i = 0; i < count; i++) {
                    passed[i] = !mask.isNull(i) && mask.get(i) != 0;
                }
            }
            catch (RuntimeException e) {
                joined.close();
                throw e;
            }
        }
        int[] probeRows = pairs.lastProbeRows();
        int[] buildRows = pairs.lastBuildRows();
        int passing = 0;
        for (int i = 0; i < count; i++) {
            if (passed[i]) {
                passing++;
                probeMatched[probeRows[i]] = true;
                if (joinType.tracksBuildMatches()) {
                    build.markMatched(buildRows[i]);
                }
            }
        }
        if (joinType.outputsOneSide() || passing == 0) {
            joined.close();
            return;
        }
        if (passing == count) {
            ready.add(relabel(joined));
            return;
        }
        try (joined) {
            ready.add(select(joined, passed, passing));
        }
    }

    private VectorSchemaRoot relabel(VectorSchemaRoot joined)
    {
        return new VectorSchemaRoot(outputSchema.getFields(), joined.getFieldVectors(), joined.getRowCount());
    }

    private VectorSchemaRoot materialize(VectorSchemaRoot probeBatch, PairBuffer pairs)
    {
        int count = pairs.size();
        int[] probeRows = pairs.probeRows();
        int[] buildRows = pairs.buildRows();
        FieldVector[] vectors = Batches.allocate(joinedSchema, context.allocator(), count);
        int columns = joinedSchema.getFields().size();
        for (int c = 0; c < probeColumnCount; c++) {
            VectorGather.gather(probeBatch.getVector(c), probeRows, count, vectors[c]);
        }
        for (int c = probeColumnCount; c < columns; c++) {
            VectorGather.gather(build.column(c - probeColumnCount), buildRows, count, vectors[c], build.columnHasNulls(c - probeColumnCount));
        }
        pairs.remember();
        return Batches.root(joinedSchema, vectors, count);
    }

    private VectorSchemaRoot select(VectorSchemaRoot joined, boolean[] passed, int passing)
    {
        FieldVector[] vectors = Batches.allocate(outputSchema, context.allocator(), passing);
        int[] rows = new int[passing];
        int out = 0;
        for (int i = 0; i < passed.length; i++) {
            if (passed[i]) {
                rows[out++] = i;
            }
        }
        for (int c = 0; c < vectors.length; c++) {
            VectorGather.gather(joined.getVector(c), rows, passing, vectors[c]);
        }
        return Batches.root(outputSchema, vectors, passing);
    }

    /** Emits probe rows whose matched flag equals {@code wanted}; with NULL build columns if {@code padBuild}. */
    private void emitProbeRows(VectorSchemaRoot batch, boolean[] matched, boolean wanted, boolean padBuild)
    {
        int count = 0;
        for (boolean m : matched) {
            if (m == wanted) {
                count++;
            }
        }
        if (count == 0) {
            return;
        }
        FieldVector[] vectors = Batches.allocate(outputSchema, context.allocator(), count);
        int[] rows = new int[count];
        int out = 0;
        for (int row = 0; row < matched.length; row++) {
            if (matched[row] == wanted) {
                rows[out++] = row;
            }
        }
        for (int c = 0; c < probeColumnCount; c++) {
            VectorGather.gather(batch.getVector(c), rows, count, vectors[c]);
        }
        if (padBuild) {
            for (int c = probeColumnCount; c < vectors.length; c++) {
                for (int i = 0; i < count; i++) {
                    vectors[c].setNull(i);
                }
            }
        }
        ready.add(Batches.root(outputSchema, vectors, count));
    }

    /** Build rows (build columns only) whose matched flag equals {@code wanted}. */
    private void emitBuildRows(boolean wanted)
    {
        int total = build.rowCount();
        for (int start = 0; start < total; start += Batches.TARGET_ROWS) {
            int end = Math.min(total, start + Batches.TARGET_ROWS);
            int[] rows = new int[end - start];
            int count = 0;
            for (int row = start; row < end; row++) {
                if (build.isMatched(row) == wanted) {
                    rows[count++] = row;
                }
            }
            if (count > 0) {
                FieldVector[] vectors = Batches.allocate(outputSchema, context.allocator(), count);
                for (int c = 0; c < vectors.length; c++) {
                    VectorGather.gather(build.column(c), rows, count, vectors[c], build.columnHasNulls(c));
                }
                ready.add(Batches.root(outputSchema, vectors, count));
            }
        }
    }

    private void emitUnmatchedBuildRows()
    {
        int total = build.rowCount();
        int start = 0;
        while (start < total) {
            int count = 0;
            int end = start;
            while (end < total && count < Batches.TARGET_ROWS) {
                if (!build.isMatched(end)) {
                    count++;
                }
                end++;
            }
            if (count > 0) {
                FieldVector[] vectors = Batches.allocate(outputSchema, context.allocator(), count);
                for (int c = 0; c < probeColumnCount; c++) {
                    for (int i = 0; i < count; i++) {
                        vectors[c].setNull(i);
                    }
                }
                int out = 0;
                for (int row = start; row < end; row++) {
                    if (!build.isMatched(row)) {
                        for (int c = probeColumnCount; c < vectors.length; c++) {
                            vectors[c].copyFromSafe(build.rowInBatch(row), out, build.vector(row, c - probeColumnCount));
                        }
                        out++;
                    }
                }
                ready.add(Batches.root(outputSchema, vectors, count));
            }
            start = end;
        }
    }

    @Override
    public void close()
    {
        ready.forEach(VectorSchemaRoot::close);
        ready.clear();
        try {
            probe.close();
        }
        finally {
            build.close();
        }
    }

    /** Pairs of (probe row, build row), with the last flushed pairs kept for the residual step. */
    private static final class PairBuffer
    {
        private int[] probeRows = new int[1024];
        private int[] buildRows = new int[1024];
        private int size;
        private int[] lastProbeRows;
        private int[] lastBuildRows;

        void add(int probeRow, int buildRow)
        {
            if (size == probeRows.length) {
                probeRows = java.util.Arrays.copyOf(probeRows, size * 2);
                buildRows = java.util.Arrays.copyOf(buildRows, size * 2);
            }
            probeRows[size] = probeRow;
            buildRows[size] = buildRow;
            size++;
        }

        int size()
        {
            return size;
        }

        int[] probeRows()
        {
            return probeRows;
        }

        int[] buildRows()
        {
            return buildRows;
        }

        void remember()
        {
            lastProbeRows = java.util.Arrays.copyOf(probeRows, size);
            lastBuildRows = java.util.Arrays.copyOf(buildRows, size);
        }

        int[] lastProbeRows()
        {
            return lastProbeRows;
        }

        int[] lastBuildRows()
        {
            return lastBuildRows;
        }

        void clear()
        {
            size = 0;
        }
    }
}
