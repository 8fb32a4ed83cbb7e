package io.ontul.engine.operator;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A pull-based operator over Arrow batches.
 * <p>
 * Protocol: one thread calls {@link #next()} until it returns null, then {@link #close()}.
 * close may also come early (LIMIT satisfied, cancel, failure) and must release every buffer the
 * operator holds, including its children. Each returned batch is owned by the caller, who
 * closes it; batches are never empty except possibly the last.
 */
public interface Operator
        extends AutoCloseable
{
    /** The next batch, or null at the end. */
    VectorSchemaRoot next();

    @Override
    void close();
}
