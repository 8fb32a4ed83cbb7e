package io.ontul.catalog.memory;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.atomic.AtomicInteger;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One stored batch of a memory table, immutable once committed. Reference counted: the table holds
 * one reference while the batch is part of it, and each source reading it holds one more, so a
 * drop (or a commit that replaces the batch) frees the vectors only after the last reader let go.
 */
final class MemoryBatch
{
    private final VectorSchemaRoot root;
    private final int rowCount;
    private final AtomicInteger references = new AtomicInteger(1);

    MemoryBatch(VectorSchemaRoot root)
    {
        this.root = requireNonNull(root, "root is null");
        this.rowCount = root.getRowCount();
    }

    int rowCount()
    {
        return rowCount;
    }

    /** The vectors; only valid while the caller holds a reference. Never modify them. */
    VectorSchemaRoot root()
    {
        return root;
    }

    /** Takes a reference, unless the batch is already freed. */
    boolean tryRetain()
    {
        while (true) {
            int current = references.get();
            if (current == 0) {
                return false;
            }
            if (references.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    void release()
    {
        int remaining = references.decrementAndGet();
        if (remaining == 0) {
            root.close();
        }
        else if (remaining < 0) {
            throw new IllegalStateException("memory batch released more often than retained");
        }
    }
}
