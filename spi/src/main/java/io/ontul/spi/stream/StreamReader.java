package io.ontul.spi.stream;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Reads the splits assigned to one task of a streaming job, each from the position the
 * coordinator gave. Single-threaded: the task's thread calls {@link #poll} repeatedly, then
 * {@link #close()}.
 * <p>
 * Exactly-once rests on one rule: every record the reader consumed is in a batch it returned, and
 * the positions returned with a batch are those right after the records in it. The engine saves
 * the positions of the last batch before a checkpoint barrier and, after a crash, opens a new
 * reader at them.
 */
public interface StreamReader
        extends AutoCloseable
{
    /**
     * Waits up to {@code timeout} for records and returns them, decoded into the columns the
     * reader was opened with. Records that cannot be decoded are skipped and counted in
     * {@link #rejectedRecords()}; their position still advances.
     */
    StreamBatch poll(Duration timeout);

    /** Records skipped so far because they could not be decoded. */
    long rejectedRecords();

    /**
     * How many records the reader is behind the end of its splits, as of its latest check (for
     * monitoring); empty when it does not know. A reader that cannot reach its system to check
     * fails the {@link #poll} instead of waiting forever.
     */
    default OptionalLong lag()
    {
        return OptionalLong.empty();
    }

    /**
     * {@link #lag()} per split (for Kafka: per partition number), as of the same check; empty when
     * the reader does not know.
     */
    default Map<String, Long> splitLags()
    {
        return Map.of();
    }

    /**
     * Tells the outside system how far the job got, for lag monitoring only (for Kafka: the
     * consumer group's committed offsets). Called after a checkpoint was committed; never used
     * for recovery. Failures are the reader's to log; they must not fail the job.
     */
    default void reportProgress(Map<String, byte[]> positions) {}

    /** Asks a {@link #poll} in progress on another thread to return early. May be called more than once. */
    default void wakeup() {}

    @Override
    void close();
}
