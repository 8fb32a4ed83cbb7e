package io.ontul.engine.stream.sink;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.engine.stream.plan.StreamingJobPlan;
import io.ontul.spi.stream.RejectedRecord;
import io.ontul.spi.stream.StreamSink;
import io.ontul.spi.stream.StreamSinkProvider;

/**
 * The sinks of one job's task as one two-phase sink: the job's table and, with option
 * 'rejects.table', the rejects table. Both are prepared and committed with every checkpoint;
 * with two sinks the task's committable holds both ({@link SinkCommittables}).
 */
public final class JobSinks
        implements AutoCloseable
{
    private final String jobName;
    private final StreamSink sink;
    private final List<Field> sinkFields;
    private final StreamSink rejects;
    private final StreamingJobPlan.RejectsTable rejectsTable;
    private final BufferAllocator allocator;

    /** @param writer the task that writes through these sinks ({@code source-0}, {@code window-3}), or {@link StreamSinkProvider#COMMITTER} */
    public static JobSinks open(StreamingJobPlan plan, String jobName, String jobId, String writer, BufferAllocator allocator)
    {
        StreamSink sink = plan.sink().createSink(plan.sinkTable(), jobId, writer, allocator);
        try {
            StreamSink rejects = plan.rejects().map(table -> table.sink().createSink(table.table(), jobId, writer, allocator)).orElse(null);
            return new JobSinks(jobName, sink, plan.sinkTable().columns().getFields(), rejects, plan.rejects().orElse(null), allocator);
        }
        catch (RuntimeException e) {
            sink.close();
            throw e;
        }
    }

    private JobSinks(String jobName, StreamSink sink, List<Field> sinkFields, StreamSink rejects, StreamingJobPlan.RejectsTable rejectsTable, BufferAllocator allocator)
    {
        this.jobName = requireNonNull(jobName, "jobName is null");
        this.sink = requireNonNull(sink, "sink is null");
        this.sinkFields = List.copyOf(sinkFields);
        this.rejects = rejects;
        this.rejectsTable = rejectsTable;
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /** Writes rows of the query's result (the sink table's columns in order, any names). */
    public void write(VectorSchemaRoot output)
    {
        sink.write(new VectorSchemaRoot(sinkFields, output.getFieldVectors(), output.getRowCount()));
    }

    /** Writes undecodable records to the rejects table, if the job has one. */
    public void writeRejected(List<RejectedRecord> records)
    {
        if (rejects == null || records.isEmpty()) {
            return;
        }
        try (VectorSchemaRoot batch = RejectedRecordsBatch.of(records, jobName, Instant.now(), rejectsTable.table().columns(), allocator)) {
            rejects.write(batch);
        }
    }

    public byte[] prepareCommit(long checkpointId)
    {
        byte[] committable = sink.prepareCommit(checkpointId);
        return rejects == null ? committable : SinkCommittables.combine(committable, rejects.prepareCommit(checkpointId));
    }

    /** Commits the task committables of a checkpoint in every sink; idempotent as each sink is. */
    public void commit(long checkpointId, List<byte[]> committables)
    {
        if (rejects == null) {
            sink.commit(checkpointId, committables);
            return;
        }
        sink.commit(checkpointId, SinkCommittables.part(committables, 0));
        rejects.commit(checkpointId, SinkCommittables.part(committables, 1));
    }

    @Override
    public void close()
    {
        try (StreamSink closingSink = sink; StreamSink closingRejects = rejects) {
            // both closed, also when one fails
        }
    }
}
