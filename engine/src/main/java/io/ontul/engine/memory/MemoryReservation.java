package io.ontul.engine.memory;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.atomic.AtomicLong;

import io.ontul.spi.DataSize;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * One consumer's share of its query's {@link MemoryPool}: the heap state it reserved
 * ({@link #size}) and the Arrow bytes it reports holding ({@link #held}). Made by
 * {@link MemoryPool#register}; the consumer grows and shrinks it as its state changes and closes
 * it when it closes, which gives back whatever it still reserves.
 * <p>
 * A consumer may grow and shrink from one thread at a time; the pool reads its figures from any.
 */
public final class MemoryReservation
        implements AutoCloseable
{
    private final MemoryPool pool;
    private final String consumer;
    private final long registration;
    private final AtomicLong size = new AtomicLong();
    private volatile long held;
    private volatile long minimumSpill;
    private volatile boolean spillable;
    private volatile boolean selfBounded;
    private volatile boolean closed;

    MemoryReservation(MemoryPool pool, String consumer, boolean spillable, long registration)
    {
        this.pool = requireNonNull(pool, "pool is null");
        this.consumer = requireNonNull(consumer, "consumer is null");
        this.spillable = spillable;
        this.registration = registration;
    }

    public String consumer()
    {
        return consumer;
    }

    /** Heap bytes reserved now. */
    public long size()
    {
        return size.get();
    }

    /** Arrow bytes the consumer reports holding (the allocator counts them already). */
    public long held()
    {
        return held;
    }

    /** What the pool ranks consumers by: heap reserved plus Arrow bytes held. */
    public long footprint()
    {
        return size.get() + held;
    }

    public boolean spillable()
    {
        return spillable;
    }

    /**
     * Says whether the consumer can spill from now on: a sort that has started to emit, or a
     * join whose build is done, no longer can, and the pool then asks the others.
     */
    public void setSpillable(boolean spillable)
    {
        this.spillable = spillable;
    }

    /**
     * The least footprint at which the consumer spills when asked (smaller state is not worth a
     * spill file); below it the pool does not count it among the consumers to ask.
     */
    public void setMinimumSpill(long bytes)
    {
        this.minimumSpill = Math.max(0, bytes);
    }

    /** Whether the pool may ask this consumer to spill now: spillable and holding more than its minimum. */
    boolean isCandidate()
    {
        long footprint = footprint();
        return spillable && footprint > 0 && footprint > minimumSpill;
    }

    /** Reports the Arrow bytes the consumer keeps now (batches held, key vectors). */
    public void setHeld(long bytes)
    {
        this.held = Math.max(0, bytes);
    }

    /**
     * Marks a consumer that bounds its own state below its share of the budget and, short of
     * memory, gives its state away rather than spilling it (a partial aggregation emits its
     * groups and starts over): its grows are counted, so the others see them and spill, but never
     * refused, so a query does not fail for a state that is about to be emitted anyway.
     */
    public void setSelfBounded(boolean selfBounded)
    {
        this.selfBounded = selfBounded;
    }

    boolean isSelfBounded()
    {
        return selfBounded;
    }

    /**
     * Reserves {@code bytes} more heap state.
     *
     * @throws OntulException EXCEEDED_MEMORY_LIMIT naming this consumer when the query would hold
     * more than its limit
     */
    public void grow(long bytes)
    {
        pool.grow(this, bytes, true);
        size.addAndGet(bytes);
    }

    /** Reserves {@code bytes} more if the query stays within its limit; false, reserving nothing, if not. */
    public boolean tryGrow(long bytes)
    {
        if (!pool.grow(this, bytes, false)) {
            return false;
        }
        size.addAndGet(bytes);
        return true;
    }

    /** Gives back {@code bytes} of what this reservation holds (at most all of it). */
    public void shrink(long bytes)
    {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must not be negative: " + bytes);
        }
        long given = Math.min(bytes, size.get());
        size.addAndGet(-given);
        pool.shrink(given);
    }

    /** Gives back everything this reservation holds; it may grow again. */
    public void free()
    {
        long all = size.getAndSet(0);
        pool.shrink(all);
    }

    /**
     * Whether the pool asks this consumer to spill now: the query is past its spill threshold
     * and this consumer is among the largest spillable ones (see {@link MemoryPool}). Consumers
     * ask at each batch they take in.
     */
    public boolean shouldSpill()
    {
        return pool.shouldSpill(this);
    }

    /**
     * The memory-limit error naming this consumer, for state that does not fit even after
     * spilling, with {@code detail} (what the user can do about it) after the limit, or the
     * standard advice when it is null.
     */
    public OntulException exceeded(String detail)
    {
        return new OntulException(ErrorCode.EXCEEDED_MEMORY_LIMIT, pool.limitMessage() + " in " + consumer
                + (detail == null ? " (raise it with SET SESSION query_max_memory = '...')" : ": " + detail));
    }

    long registration()
    {
        return registration;
    }

    @Override
    public void close()
    {
        if (!closed) {
            closed = true;
            free();
            held = 0;
            pool.unregister(this);
        }
    }

    @Override
    public String toString()
    {
        return consumer + " " + DataSize.format(footprint());
    }
}
