package io.ontul.catalog.tpcds;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Iterator;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.spi.BatchSource;
import io.trino.tpcds.Results;
import io.trino.tpcds.Session;

/**
 * Generates one chunk of a TPC-DS table and writes the asked columns into Arrow vectors,
 * {@link #BATCH_SIZE} rows (or fewer) at a time. The generator gives each row as text; a null
 * value is a NULL.
 */
final class TpcdsBatchSource
        implements BatchSource
{
    static final int BATCH_SIZE = 8192;

    private final Iterator<List<List<String>>> rows;
    private final int[] positions;
    private final Schema schema;
    private final BufferAllocator allocator;
    private final int batchSize;

    TpcdsBatchSource(TpcdsSplit split, List<Integer> positions, Schema table, List<String> columns, BufferAllocator allocator, int batchSize)
    {
        Session session = Session.getDefaultSession()
                .withScale(split.scaleFactor())
                .withParallelism(split.chunks())
                .withChunkNumber(split.chunk())
                .withTable(split.table())
                .withNoSexism(false);
        this.rows = Results.constructResults(split.table(), session).iterator();
        this.positions = positions.stream().mapToInt(Integer::intValue).toArray();
        this.schema = new Schema(columns.stream().map(name -> table.findField(name)).toList());
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.batchSize = batchSize;
    }

    @Override
    public VectorSchemaRoot next()
    {
        if (!rows.hasNext()) {
            return null;
        }
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator);
        try {
            batch.allocateNew();
            int count = 0;
            while (count < batchSize && rows.hasNext()) {
                List<String> row = rows.next().get(0);
                for (int column = 0; column < positions.length; column++) {
                    set(batch.getVector(column), count, row.get(positions[column]));
                }
                count++;
            }
            for (FieldVector vector : batch.getFieldVectors()) {
                vector.setValueCount(count);
            }
            batch.setRowCount(count);
            return batch;
        }
        catch (RuntimeException e) {
            batch.close();
            throw e;
        }
    }

    private static void set(FieldVector vector, int row, String value)
    {
        if (value == null) {
            vector.setNull(row);
            return;
        }
        if (vector instanceof BigIntVector target) {
            target.setSafe(row, Long.parseLong(value));
        }
        else if (vector instanceof IntVector target) {
            target.setSafe(row, Integer.parseInt(value));
        }
        else if (vector instanceof DecimalVector target) {
            target.setSafe(row, new BigDecimal(value).setScale(target.getScale()));
        }
        else if (vector instanceof DateDayVector target) {
            target.setSafe(row, (int) LocalDate.parse(value).toEpochDay());
        }
        else if (vector instanceof TimeMilliVector target) {
            target.setSafe(row, (int) (LocalTime.parse(value).toNanoOfDay() / 1_000_000));
        }
        else if (vector instanceof VarCharVector target) {
            target.setSafe(row, value.getBytes(StandardCharsets.UTF_8));
        }
        else {
            throw new IllegalStateException("no TPC-DS column has vector type " + vector.getClass().getSimpleName());
        }
    }

    @Override
    public void close() {}
}
