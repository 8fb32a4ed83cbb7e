package io.ontul.engine.operator.window;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.function.Supplier;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.OperatorContext;
import io.ontul.exchange.spill.SpillRun;
import io.ontul.exchange.spill.SpillRunReader;
import io.ontul.exchange.spill.SpillRunWriter;

/**
 * Consecutive rows of a {@link StreamedWindowEvaluation} written out while they wait for a
 * peer group or partition to end: their input columns and the results written so far, in one
 * spill run. The rows still open for a function that {@link StreamedWindowFunction#defers} all
 * belong to the group open when they were written, so they are a suffix of these rows and take
 * one value: {@link #fill} keeps it (a one-row vector) once the group ends, and {@link #read}
 * writes it into the batches read back.
 * <p>
 * Protocol: {@link #write}; {@link #fill} at most once per function; {@link #read} once, when
 * no function may write the rows any more; {@link #close} deletes the run and the values. Not
 * thread-safe.
 */
final class SpilledRows
        implements AutoCloseable
{
    private final Schema schema;
    private final int inputColumns;
    private final long first;
    private final long end;
    private final SpillRun run;
    // per function (result column), its value for rows from valuesFrom on, or null
    private final FieldVector[] values;
    private final long[] valuesFrom;

    private SpilledRows(Schema schema, int inputColumns, int functions, long first, long end, SpillRun run)
    {
        this.schema = requireNonNull(schema, "schema is null");
        this.inputColumns = inputColumns;
        this.first = first;
        this.end = end;
        this.run = requireNonNull(run, "run is null");
        this.values = new FieldVector[functions];
        this.valuesFrom = new long[functions];
    }

    /**
     * Writes {@code batches} batches taken from {@code next} (each of {@code schema}: the input
     * columns, then one result column per function; closed once written), the first starting at
     * row {@code first}.
     */
    static SpilledRows write(OperatorContext context, Schema schema, int inputColumns, int functions, long first, int batches, Supplier<VectorSchemaRoot> next)
    {
        long rows = 0;
        try (SpillRunWriter writer = context.spillSpace().newRun(schema)) {
            for (int b = 0; b < batches; b++) {
                try (VectorSchemaRoot batch = next.get()) {
                    writer.write(batch);
                    rows += batch.getRowCount();
                }
            }
            return new SpilledRows(schema, inputColumns, functions, first, first + rows, writer.finish());
        }
    }

    long first()
    {
        return first;
    }

    /** The global index after the last row. */
    long end()
    {
        return end;
    }

    long bytes()
    {
        return run.bytes();
    }

    /** The group of rows [from, groupEnd) ended: those of them written here take {@code function}'s current value. */
    void fill(StreamedWindowFunction.Running function, long from, long groupEnd)
    {
        int output = function.output;
        if (values[output] != null || from < first || groupEnd < end) {
            throw new IllegalStateException("rows [" + from + ", " + groupEnd + ") do not end a group open over spilled rows [" + first + ", " + end + ")"
                    + (values[output] != null ? " (already filled from " + valuesFrom[output] + ")" : ""));
        }
        FieldVector value = schema.getFields().get(inputColumns + output).createVector(function.pass.allocator());
        try {
            Batches.allocate(value, 1);
            function.write(value, 0);
            value.setValueCount(1);
        }
        catch (RuntimeException e) {
            value.close();
            throw e;
        }
        values[output] = value;
        valuesFrom[output] = from;
    }

    /** Reads the rows back, batch by batch, with the values of {@link #fill} written in. */
    Reader read(BufferAllocator allocator)
    {
        return new Reader(run.open(allocator));
    }

    @Override
    public void close()
    {
        try {
            Batches.closeAll(Arrays.asList(values));
        }
        finally {
            Arrays.fill(values, null);
            run.delete();
        }
    }

    /** The batches of a {@link SpilledRows}, each owned by the caller. */
    final class Reader
            implements AutoCloseable
    {
        private final SpillRunReader reader;
        private long next = first;
        private boolean closed;

        private Reader(SpillRunReader reader)
        {
            this.reader = reader;
        }

        /** The next batch, or null (and the reader closed) after the last. */
        VectorSchemaRoot next()
        {
            if (closed) {
                return null;
            }
            VectorSchemaRoot batch = reader.next();
            if (batch == null) {
                close();
                return null;
            }
            try {
                int rows = batch.getRowCount();
                for (int output = 0; output < values.length; output++) {
                    if (values[output] == null) {
                        continue;
                    }
                    FieldVector out = batch.getVector(inputColumns + output);
                    // a suffix of the rows: written in row order, as variable-width vectors need
                    for (int row = (int) Math.min(rows, Math.max(0, valuesFrom[output] - next)); row < rows; row++) {
                        WindowValues.copy(values[output], 0, out, row);
                    }
                    out.setValueCount(rows);
                }
            }
            catch (RuntimeException e) {
                batch.close();
                throw e;
            }
            next += batch.getRowCount();
            return batch;
        }

        @Override
        public void close()
        {
            if (!closed) {
                closed = true;
                reader.close();
            }
        }
    }
}
