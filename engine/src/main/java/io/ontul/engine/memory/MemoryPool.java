package io.ontul.engine.memory;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import io.ontul.spi.DataSize;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The memory of one query, shared by the operators that hold state: their Arrow buffers, counted
 * by the query's allocator, plus the heap state they reserve (hash tables, sort indexes).
 * <p>
 * Protocol. An operator whose memory grows with its input registers a {@link MemoryReservation}
 * under its name, saying whether it can write its state to disk. It grows the reservation
 * before it grows heap state and shrinks it when that state is gone; it reports the Arrow bytes
 * it keeps ({@link MemoryReservation#setHeld}), which the allocator already counts, so that the
 * pool can rank consumers by what they hold. It closes the reservation when it closes.
 * <p>
 * Spilling. The pool never writes anything itself: it tells consumers. Once the query holds more
 * than its spill threshold (half its limit: the rest is headroom for batches in flight and for
 * reading spilled data back), {@link MemoryReservation#shouldSpill} is true for the largest
 * spillable consumers, largest first, as many as together hold the excess over the threshold: a
 * query with one big hash join build and a small sort spills the build, not both. A consumer
 * holding less than its {@linkplain MemoryReservation#setMinimumSpill minimum} (too little to be
 * worth a spill file) is not a candidate, so it never shields a larger one's turn from others. A grow that would take the query past its limit is refused:
 * {@link MemoryReservation#tryGrow} answers false, and the consumer spills what it holds;
 * {@link MemoryReservation#grow} fails with the memory-limit error naming the consumer. Without a
 * spill store ({@code canSpill} false) no consumer is asked to spill and every refusal fails.
 * <p>
 * Thread-safe: a query's parallel workers share its pool.
 */
public final class MemoryPool
{
    private final long limit;
    private final long spillThreshold;
    private final LongSupplier arrowBytes;
    private final BooleanSupplier canSpill;
    private final AtomicLong reserved = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();
    private final AtomicLong registrations = new AtomicLong();
    private final Set<MemoryReservation> reservations = ConcurrentHashMap.newKeySet();

    /**
     * @param limit the query's memory budget, in bytes
     * @param arrowBytes the Arrow bytes the query's allocator holds now
     * @param canSpill whether the query has a spill store to write to
     */
    public MemoryPool(long limit, LongSupplier arrowBytes, BooleanSupplier canSpill)
    {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        this.limit = limit;
        this.spillThreshold = limit / 2;
        this.arrowBytes = requireNonNull(arrowBytes, "arrowBytes is null");
        this.canSpill = requireNonNull(canSpill, "canSpill is null");
    }

    /**
     * A reservation for one consumer, empty until it grows.
     *
     * @param consumer what holds the memory, as users read it in errors and EXPLAIN ANALYZE
     * ({@code HashAggregate}, {@code HashJoin build})
     * @param spillable whether the consumer can write its state to disk when asked
     */
    public MemoryReservation register(String consumer, boolean spillable)
    {
        MemoryReservation reservation = new MemoryReservation(this, consumer, spillable, registrations.incrementAndGet());
        reservations.add(reservation);
        return reservation;
    }

    public long limit()
    {
        return limit;
    }

    /** Bytes the query holds beyond which spillable consumers are asked to spill. */
    public long spillThreshold()
    {
        return spillThreshold;
    }

    /** What the query holds now: Arrow buffers plus reserved heap state. */
    public long used()
    {
        return reserved.get() + arrowBytes.getAsLong();
    }

    /** Heap state reserved by all consumers together. */
    public long reserved()
    {
        return reserved.get();
    }

    /** The most the query held at a reservation's grow that was granted. */
    public long peak()
    {
        return peak.get();
    }

    public boolean canSpill()
    {
        return canSpill.getAsBoolean();
    }

    /** The consumers registered now, largest first. */
    public List<MemoryReservation> consumers()
    {
        List<MemoryReservation> consumers = new ArrayList<>(reservations);
        consumers.sort(Comparator.comparing((MemoryReservation reservation) -> reservation, MemoryPool::larger));
        return consumers;
    }

    /** The memory-limit error, for memory that ran out outside any reservation (an Arrow allocation). */
    public OntulException exceeded(Throwable cause)
    {
        return new OntulException(ErrorCode.EXCEEDED_MEMORY_LIMIT, limitMessage() + " (raise it with SET SESSION query_max_memory = '...')", cause);
    }

    /** The start of every memory-limit message: {@code Query exceeded per-query memory limit of 2MB}. */
    public String limitMessage()
    {
        return limitMessage(limit);
    }

    /** The start of every memory-limit message for a query limited to {@code limit} bytes. */
    public static String limitMessage(long limit)
    {
        return "Query exceeded per-query memory limit of " + DataSize.format(limit);
    }

    boolean grow(MemoryReservation reservation, long bytes, boolean orFail)
    {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must not be negative: " + bytes);
        }
        long total = reserved.addAndGet(bytes);
        long used = total + arrowBytes.getAsLong();
        if (used > limit && !reservation.isSelfBounded()) {
            reserved.addAndGet(-bytes);
            if (orFail) {
                throw new OntulException(ErrorCode.EXCEEDED_MEMORY_LIMIT, limitMessage() + " in " + reservation.consumer()
                        + " (raise it with SET SESSION query_max_memory = '...')");
            }
            return false;
        }
        peak.accumulateAndGet(used, Math::max);
        return true;
    }

    void shrink(long bytes)
    {
        reserved.addAndGet(-bytes);
    }

    void unregister(MemoryReservation reservation)
    {
        reservations.remove(reservation);
    }

    boolean shouldSpill(MemoryReservation reservation)
    {
        if (!reservation.isCandidate() || !canSpill.getAsBoolean()) {
            return false;
        }
        long excess = used() - spillThreshold;
        if (excess <= 0) {
            return false;
        }
        // the spillable consumers ranked before this one: asked first, they may cover the excess alone
        long before = 0;
        for (MemoryReservation other : reservations) {
            if (other != reservation && other.isCandidate() && larger(other, reservation) < 0) {
                before += other.footprint();
                if (before >= excess) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Negative when {@code a} ranks before {@code b}: it holds more, or as much and registered first. */
    private static int larger(MemoryReservation a, MemoryReservation b)
    {
        int bySize = Long.compare(b.footprint(), a.footprint());
        return bySize != 0 ? bySize : Long.compare(a.registration(), b.registration());
    }
}
