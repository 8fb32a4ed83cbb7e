package io.ontul.engine.stream.sink;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Instant;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.spi.stream.RejectedRecord;

/** Rows of a rejects table ({@link StreamingJobPlanner#REJECTS_COLUMNS}) for undecodable records. */
public final class RejectedRecordsBatch
{
    private RejectedRecordsBatch() {}

    /** The caller owns the batch. */
    public static VectorSchemaRoot of(List<RejectedRecord> records, String job, Instant rejectedAt, Schema schema, BufferAllocator allocator)
    {
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator);
        try {
            ArrowType.Timestamp timeType = (ArrowType.Timestamp) schema.getFields().get(4).getType();
            long time = switch (timeType.getUnit()) {
                case SECOND -> rejectedAt.getEpochSecond();
                case MILLISECOND -> rejectedAt.toEpochMilli();
                case MICROSECOND -> rejectedAt.getEpochSecond() * 1_000_000 + rejectedAt.getNano() / 1000;
                case NANOSECOND -> rejectedAt.getEpochSecond() * 1_000_000_000 + rejectedAt.getNano();
            };
            for (int row = 0; row < records.size(); row++) {
                RejectedRecord record = records.get(row);
                set((VarCharVector) batch.getVector(0), row, job);
                set((VarCharVector) batch.getVector(1), row, record.source());
                set((VarCharVector) batch.getVector(2), row, record.payload());
                set((VarCharVector) batch.getVector(3), row, record.reason());
                ((TimeStampVector) batch.getVector(4)).setSafe(row, time);
            }
            batch.setRowCount(records.size());
            return batch;
        }
        catch (RuntimeException e) {
            batch.close();
            throw e;
        }
    }

    private static void set(VarCharVector vector, int row, String value)
    {
        if (value == null) {
            vector.setNull(row);
        }
        else {
            vector.setSafe(row, value.getBytes(UTF_8));
        }
    }

}
