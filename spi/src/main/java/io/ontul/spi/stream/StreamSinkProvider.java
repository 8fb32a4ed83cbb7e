package io.ontul.spi.stream;

import org.apache.arrow.memory.BufferAllocator;

import io.ontul.spi.TableHandle;

/** Creates the sinks of streaming jobs writing into tables of one catalog. */
public interface StreamSinkProvider
{
    /**
     * Opens a sink for {@code jobId}, a name unique to one streaming job for its whole life (it
     * is recorded with each commit so that a replayed commit can be recognized).
     *
     * @param allocator where the sink may keep copies of rows; it belongs to the job
     */
    StreamSink createSink(TableHandle table, String jobId, BufferAllocator allocator);

    /**
     * Opens the sink through which the task {@code writer} of job {@code jobId} writes, or
     * ({@link #COMMITTER}) the one that only commits the writers' committables. A writer's name
     * (such as {@code window-2}) is the same in every run of the job at the same parallelism, so
     * a sink that keeps state per writer outside the table (Kafka's transactional ids) can
     * recognize and fence an earlier run's writer. By default the writer does not matter.
     */
    default StreamSink createSink(TableHandle table, String jobId, String writer, BufferAllocator allocator)
    {
        return createSink(table, jobId, allocator);
    }

    /** The writer name of the sink that a job's coordinator opens to commit, which writes nothing itself. */
    String COMMITTER = "committer";
}
