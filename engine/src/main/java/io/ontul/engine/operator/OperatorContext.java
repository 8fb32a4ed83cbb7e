package io.ontul.engine.operator;

import java.util.concurrent.ExecutorService;

import org.apache.arrow.memory.BufferAllocator;

import io.ontul.engine.memory.MemoryPool;
import io.ontul.engine.memory.MemoryReservation;
import io.ontul.exchange.spill.SpillSpace;
import io.ontul.spi.OntulException;

/**
 * What an operator sees of the query it runs in: where its Arrow buffers come from, the memory
 * it may hold and its reservations in the query's memory pool, its spill files, the threads it may start, and
 * cancellation. The engine's query context implements it; operators know nothing else of the
 * execution layer.
 */
public interface OperatorContext
{
    String queryId();

    /** The query's allocator: every Arrow buffer an operator makes is counted against the query. */
    BufferAllocator allocator();

    /** Threads for an operator's helpers (a gather's producers, a join's partitioners). */
    ExecutorService executor();

    /** How many threads a query's operator may keep busy at once. */
    int parallelism();

    /** The query's memory budget, in bytes. */
    long memoryLimit();

    /** Memory the query holds now: Arrow buffers plus reserved heap state. */
    long memoryUsed();

    /**
     * A reservation in the query's memory pool for one consumer: an operator whose state grows
     * with its input reserves its heap state through it, reports the Arrow bytes it holds, and
     * asks it whether to spill (see {@link MemoryPool}). The operator closes it when it closes.
     *
     * @param consumer the operator's name as users read it ({@code HashAggregate})
     * @param spillable whether the consumer writes its state to disk when asked
     */
    MemoryReservation memoryReservation(String consumer, boolean spillable);

    /** Whether the query can spill at all: without a spill store, operators fail at the limit. */
    boolean canSpill();

    /** The query's spill files, created on first use and deleted when the query ends. */
    SpillSpace spillSpace();

    /** Throws the query's cancellation (QUERY_CANCELLED, or the reason it was killed) once it is cancelled. */
    void checkCancelled();

    /** Cancels the whole query: how a failed helper thread stops its siblings. */
    void cancel();

    /** Runs {@code hook} when the query is cancelled, until the returned handle is closed. */
    AutoCloseable onCancel(Runnable hook);

    /** Counts bytes (Arrow buffers) the query received from other nodes of the cluster. */
    default void recordExchanged(long bytes) {}
}
