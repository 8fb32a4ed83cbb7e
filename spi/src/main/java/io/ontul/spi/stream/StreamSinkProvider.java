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
}
