package io.ontul.engine.expression;

import org.apache.arrow.vector.FieldVector;

/**
 * A compiled filter-and-project loop over one batch, generated once per query stage by
 * {@link KernelCompiler}. For each input row it evaluates the filter (if any); for rows that
 * pass it evaluates every projection and writes them at the next output position.
 * <p>
 * Protocol: the caller allocates every output vector with capacity for {@code rowCount} rows
 * (variable-width vectors grow as needed), calls {@link #process}, then sets the output value
 * count to the returned number. An output that is a bare input column
 * ({@link KernelCompiler#bareInputs}) is copied from the selected rows after the loop; the caller
 * may pass null for it instead and take those rows itself ({@link #selection}), by moving the
 * input vector when every row passed. Instances are not thread-safe: one per operator instance.
 */
public interface ProjectionKernel
{
    int process(FieldVector[] inputs, FieldVector[] outputs, int rowCount);

    /** The input rows that passed in the last {@link #process} call, in order: its first (returned) entries. */
    int[] selection();
}
