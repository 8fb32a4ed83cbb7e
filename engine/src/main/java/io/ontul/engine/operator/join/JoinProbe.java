package io.ontul.engine.operator.join;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Deque;
import java.util.function.Consumer;

import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Columns;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.engine.operator.VectorGather;


/**
 * Probes one {@link JoinBuild} with probe batches: finds candidate build rows by key hash, keeps
 * pairs whose keys are equal, materialises them as joined rows (probe columns, then build
 * columns) and applies the residual condition, compiled as a kernel that yields one boolean per
 * pair. Output batches go to the deque given at construction.
 * <p>
 * A {@link Matching} does the pair work for one probe batch, in steps, and reports which probe
 * rows matched; the caller decides what to emit for them: {@link #emitProbeOutcome} when the
 * build side is probed in one pass, {@link #emitProbeRows} otherwise (with a build side split
 * into chunks a probe row's fate is known only after the last chunk).
 */
final class JoinProbe
{
    /** Probe rows whose slots are read ahead of looking them up ({@link JoinBuild#touch}). */
    private static final int READ_AHEAD_ROWS = 64;

    private final OperatorContext context;
    private final JoinBuild build;
    private final JoinSpec spec;
    private final Deque<VectorSchemaRoot> output;
    private final int maxPairs;

    JoinProbe(OperatorContext context, JoinBuild build, JoinSpec spec, Deque<VectorSchemaRoot> output)
    {
        this.context = requireNonNull(context, "context is null");
        this.build = requireNonNull(build, "build is null");
        this.spec = requireNonNull(spec, "spec is null");
        this.output = requireNonNull(output, "output is null");
        this.maxPairs = maxPairs(context.memoryLimit(), spec.joinedSchema());
    }

    /**
     * Pairs matched before they are joined into one batch: {@link Batches#TARGET_ROWS}, fewer
     * when a batch of joined rows (every column of both sides, before the residual filters it)
     * would take more than a 32nd of the query's budget, as in a nested-loop join of wide rows
     * under a small budget.
     */
    static int maxPairs(long memoryLimit, Schema joinedSchema)
    {
        long rowBytes = 0;
        for (Field field : joinedSchema.getFields()) {
            ArrowType type = field.getType();
            // offsets and a guess at the text for variable-width columns; validity included loosely
            rowBytes += type instanceof ArrowType.Utf8 || type instanceof ArrowType.Binary ? 40 : 9;
        }
        return (int) Math.max(1024, Math.min(Batches.TARGET_ROWS, memoryLimit / 32 / Math.max(1, rowBytes)));
    }

    /** Starts matching {@code batch}, which the returned matching then owns and closes. */
    Matching start(VectorSchemaRoot batch)
    {
        try {
            return new Matching(batch);
        }
        catch (RuntimeException e) {
            batch.close();
            throw e;
        }
    }

    /**
     * Emits what a build side probed in one pass decides for the probe rows of a finished
     * matching: unmatched rows padded with NULLs (LEFT, FULL), matched rows (SEMI), unmatched
     * rows (ANTI).
     */
    void emitProbeOutcome(Matching matching)
    {
        boolean[] matched = matching.matched();
        switch (spec.joinType()) {
            case LEFT, FULL -> emitProbeRows(matching.batch(), invert(matched), true);
            case SEMI -> emitProbeRows(matching.batch(), matched, false);
            case ANTI -> emitProbeRows(matching.batch(), invert(matched), false);
            default -> { }
        }
    }

    private static boolean[] invert(boolean[] values)
    {
        boolean[] inverted = new boolean[values.length];
        for (int i = 0; i < values.length; i++) {
            inverted[i] = !values[i];
        }
        return inverted;
    }

    /**
     * The matching of one probe batch against the build, a bounded number of pairs at a time so
     * a key with many matches never piles up output: each {@link #advance} emits at most one
     * batch of joined rows (for joins that output both sides) and marks matched build rows (for
     * joins that track them). Once it returns false, {@link #matched} tells per probe row whether
     * it found a match that passes the residual condition.
     */
    final class Matching
            implements AutoCloseable
    {
        private final VectorSchemaRoot batch;
        private final int rows;
        private final FieldVector[] keys;
        private final boolean[] matched;
        private final PairBuffer pairs = new PairBuffer();
        // what JoinBuild.touch read, kept so that its reads are not optimised away
        private long touched;
        // one integer-like key: the probe keys as longs, looked up by value
        private final long[] values;
        private final boolean valueNulls;
        private final boolean keyNulls;
        // otherwise: key hashes, and the keys as longs where both sides have integer-like keys
        private final long[] hashes;
        private final long[][] probeLongs;
        private final long[][] buildLongs;
        private final boolean firstMatchDecides = spec.residual() == null && (spec.joinType() == JoinType.SEMI || spec.joinType() == JoinType.ANTI);
        private int row;
        private boolean rowStarted;
        private int candidate;
        private boolean done;

        private Matching(VectorSchemaRoot batch)
        {
            this.batch = batch;
            this.rows = batch.getRowCount();
            int[] probeKeys = spec.probeKeys();
            this.keys = new FieldVector[probeKeys.length];
            for (int k = 0; k < probeKeys.length; k++) {
                keys[k] = batch.getVector(probeKeys[k]);
            }
            this.matched = new boolean[rows];
            this.keyNulls = Columns.anyNull(keys, spec.nullSafe());
            if (build.hasSingleLongKey() && Columns.isLongLike(keys[0])) {
                values = Columns.longs(keys[0], rows);
                valueNulls = keys[0].getNullCount() > 0;
                hashes = null;
                probeLongs = null;
                buildLongs = null;
                return;
            }
            values = null;
            valueNulls = false;
            hashes = new long[rows];
            for (FieldVector key : keys) {
                Columns.hashInto(key, rows, hashes);
            }
            probeLongs = new long[keys.length][];
            buildLongs = new long[keys.length][];
            for (int k = 0; k < keys.length; k++) {
                buildLongs[k] = build.longKeys(k);
                if (buildLongs[k] != null && Columns.isLongLike(keys[k])) {
                    probeLongs[k] = Columns.longs(keys[k], rows);
                }
                else {
                    buildLongs[k] = null;
                }
            }
        }

        /** Matches up to one batch of pairs; false once every probe row is matched. */
        boolean advance()
        {
            if (done) {
                return false;
            }
            if (values != null) {
                return advanceSingleKey();
            }
            // keys compared by hash, then by value
            while (row < rows) {
                if (!rowStarted) {
                    if (keyNulls && hasExcludedNull(keys, row)) {
                        row++;
                        continue;
                    }
                    candidate = build.head(Columns.mix(hashes[row]));
                    rowStarted = true;
                }
                while (candidate >= 0) {
                    int buildRow = candidate;
                    candidate = build.next(buildRow);
                    if (keysEqual(keys, probeLongs, buildLongs, row, buildRow)) {
                        pairs.add(row, buildRow);
                        if (firstMatchDecides) {
                            // a semi or anti join without a residual: one match decides the row
                            candidate = -1;
                        }
                        if (pairs.size() >= maxPairs) {
                            flushPairs(batch, pairs, matched);
                            return true;
                        }
                    }
                }
                rowStarted = false;
                row++;
            }
            flushPairs(batch, pairs, matched);
            done = true;
            return false;
        }

        /**
         * {@link #advance} for one integer-like key, looked up by value: the row loop works on
         * locals. A semi or anti join without a residual needs no pairs at all: a probe row is
         * matched when its key is in the build.
         */
        private boolean advanceSingleKey()
        {
            boolean readAhead = build.worthReadingAhead();
            if (firstMatchDecides && !spec.joinType().tracksBuildMatches()) {
                for (int r = row; r < rows; r++) {
                    if (readAhead && r % READ_AHEAD_ROWS == 0) {
                        touched += build.touch(values, r, Math.min(rows, r + READ_AHEAD_ROWS));
                    }
                    if (!(valueNulls && keys[0].isNull(r)) && build.findKey(values[r]) >= 0) {
                        matched[r] = true;
                    }
                }
                row = rows;
                done = true;
                return false;
            }
            int r = row;
            int next = candidate;
            boolean started = rowStarted;
            int readUpTo = readAhead ? r : rows;
            while (r < rows) {
                if (!started) {
                    if (r >= readUpTo) {
                        readUpTo = Math.min(rows, r + READ_AHEAD_ROWS);
                        touched += build.touch(values, r, readUpTo);
                    }
                    if (valueNulls && keys[0].isNull(r)) {
                        r++;
                        continue;
                    }
                    next = build.findKey(values[r]);
                    started = true;
                }
                while (next >= 0) {
                    int buildRow = next;
                    next = firstMatchDecides ? -1 : build.next(buildRow);
                    pairs.add(r, buildRow);
                    if (pairs.size() >= maxPairs) {
                        row = r;
                        candidate = next;
                        rowStarted = true;
                        flushPairs(batch, pairs, matched);
                        return true;
                    }
                }
                started = false;
                r++;
            }
            row = r;
            candidate = -1;
            rowStarted = false;
            flushPairs(batch, pairs, matched);
            done = true;
            return false;
        }

        VectorSchemaRoot batch()
        {
            return batch;
        }

        boolean[] matched()
        {
            return matched;
        }

        @Override
        public void close()
        {
            batch.close();
        }
    }

    private boolean hasExcludedNull(FieldVector[] keys, int row)
    {
        boolean[] nullSafe = spec.nullSafe();
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
        boolean[] nullSafe = spec.nullSafe();
        for (int k = 0; k < keys.length; k++) {
            if (probeLongs[k] != null && !nullSafe[k]) {
                // nulls never reach here: rows with a NULL key are skipped on both sides
                if (probeLongs[k][row] != buildLongs[k][candidate]) {
                    return false;
                }
            }
            else if (!Columns.equal(keys[k], row, build.column(buildKeys[k]), candidate)) {
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
        JoinType joinType = spec.joinType();
        if (spec.residual() == null && joinType.outputsOneSide()) {
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
        if (spec.residual() == null) {
            Arrays.fill(passed, true);
        }
        else {
            try (BitVector mask = (BitVector) new Field("mask", FieldType.nullable(ArrowType.Bool.INSTANCE), null).createVector(context.allocator())) {
                mask.allocateNew(count);
                spec.residual().process(joined.getFieldVectors().toArray(new FieldVector[0]), new FieldVector[] {mask}, count);
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
            output.add(new VectorSchemaRoot(spec.outputSchema().getFields(), joined.getFieldVectors(), joined.getRowCount()));
            return;
        }
        try (joined) {
            output.add(select(joined, passed, passing));
        }
    }

    private VectorSchemaRoot materialize(VectorSchemaRoot probeBatch, PairBuffer pairs)
    {
        int count = pairs.size();
        int[] probeRows = pairs.probeRows();
        int[] buildRows = pairs.buildRows();
        Schema joinedSchema = spec.joinedSchema();
        int probeColumnCount = spec.probeColumnCount();
        VectorSchemaRoot joined = batch(joinedSchema, count, vectors -> {
            for (int c = 0; c < probeColumnCount; c++) {
                VectorGather.gather(probeBatch.getVector(c), probeRows, count, vectors[c]);
            }
            for (int c = probeColumnCount; c < vectors.length; c++) {
                VectorGather.gather(build.column(c - probeColumnCount), buildRows, count, vectors[c], build.columnHasNulls(c - probeColumnCount));
            }
        });
        pairs.remember();
        return joined;
    }

    private VectorSchemaRoot select(VectorSchemaRoot joined, boolean[] passed, int passing)
    {
        int[] rows = new int[passing];
        int out = 0;
        for (int i = 0; i < passed.length; i++) {
            if (passed[i]) {
                rows[out++] = i;
            }
        }
        return batch(spec.outputSchema(), passing, vectors -> {
            for (int c = 0; c < vectors.length; c++) {
                VectorGather.gather(joined.getVector(c), rows, passing, vectors[c]);
            }
        });
    }

    /** Emits the probe rows whose {@code selected} flag is set; with NULL build columns if {@code padBuild}. */
    void emitProbeRows(VectorSchemaRoot batch, boolean[] selected, boolean padBuild)
    {
        int count = 0;
        for (boolean s : selected) {
            if (s) {
                count++;
            }
        }
        if (count == 0) {
            return;
        }
        int probeColumnCount = spec.probeColumnCount();
        int[] rows = new int[count];
        int out = 0;
        for (int row = 0; row < selected.length; row++) {
            if (selected[row]) {
                rows[out++] = row;
            }
        }
        int rowCount = count;
        output.add(batch(spec.outputSchema(), count, vectors -> {
            for (int c = 0; c < probeColumnCount; c++) {
                VectorGather.gather(batch.getVector(c), rows, rowCount, vectors[c]);
            }
            if (padBuild) {
                for (int c = probeColumnCount; c < vectors.length; c++) {
                    for (int i = 0; i < rowCount; i++) {
                        vectors[c].setNull(i);
                    }
                }
            }
        }));
    }

    /**
     * Emits the build rows that depend on matches, once every probe row has been matched:
     * unmatched ones padded with NULLs (RIGHT, FULL), matched ones (RIGHT_SEMI) or unmatched
     * ones (RIGHT_ANTI). Nothing for other join types.
     */
    void emitBuildRows()
    {
        switch (spec.joinType()) {
            case RIGHT_SEMI -> emitBuildRows(true);
            case RIGHT_ANTI -> emitBuildRows(false);
            case RIGHT, FULL -> emitUnmatchedBuildRows();
            default -> { }
        }
    }

    /** Build rows (build columns only) whose matched flag equals {@code wanted}. */
    private void emitBuildRows(boolean wanted)
    {
        Schema outputSchema = spec.outputSchema();
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
                int rowCount = count;
                output.add(batch(outputSchema, count, vectors -> {
                    for (int c = 0; c < vectors.length; c++) {
                        VectorGather.gather(build.column(c), rows, rowCount, vectors[c], build.columnHasNulls(c));
                    }
                }));
            }
        }
    }

    private void emitUnmatchedBuildRows()
    {
        Schema outputSchema = spec.outputSchema();
        int probeColumnCount = spec.probeColumnCount();
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
                int rowCount = count;
                int from = start;
                int to = end;
                output.add(batch(outputSchema, count, vectors -> {
                    for (int c = 0; c < probeColumnCount; c++) {
                        for (int i = 0; i < rowCount; i++) {
                            vectors[c].setNull(i);
                        }
                    }
                    int out = 0;
                    for (int row = from; row < to; row++) {
                        if (!build.isMatched(row)) {
                            for (int c = probeColumnCount; c < vectors.length; c++) {
                                vectors[c].copyFromSafe(row, out, build.column(c - probeColumnCount));
                            }
                            out++;
                        }
                    }
                }));
            }
            start = end;
        }
    }

    /** A batch of {@code schema} with {@code count} rows filled by {@code filler}; nothing leaks if filling fails. */
    private VectorSchemaRoot batch(Schema schema, int count, Consumer<FieldVector[]> filler)
    {
        FieldVector[] vectors = Batches.allocate(schema, context.allocator(), count);
        try {
            filler.accept(vectors);
            return Batches.root(schema, vectors, count);
        }
        catch (RuntimeException e) {
            for (FieldVector vector : vectors) {
                vector.close();
            }
            throw e;
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
                probeRows = Arrays.copyOf(probeRows, size * 2);
                buildRows = Arrays.copyOf(buildRows, size * 2);
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
            lastProbeRows = Arrays.copyOf(probeRows, size);
            lastBuildRows = Arrays.copyOf(buildRows, size);
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
