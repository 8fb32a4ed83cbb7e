package io.ontul.catalog.tpch;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.spi.BatchSource;
import io.trino.tpch.TpchEntity;

/**
 * Generates one part of a TPC-H table and writes the requested columns straight into Arrow
 * vectors, {@code batchSize} rows at a time ({@link #BATCH_SIZE}, or fewer when the scan asks
 * for fewer). Nothing is kept between batches but the generator's position.
 */
public final class TpchBatchSource<E extends TpchEntity>
        implements BatchSource
{
    public static final int BATCH_SIZE = 8192;

    private final TpchTableDefinition<E> table;
    private final double scaleFactor;
    private final int part;
    private final int partCount;
    private final List<TpchColumnDefinition<E>> columns;
    private final List<Field> fields;
    private final BufferAllocator allocator;
    private final int batchSize;
    private final List<E> rows;
    private Iterator<E> generator;
    private boolean finished;

    public TpchBatchSource(TpchTableDefinition<E> table, double scaleFactor, int part, int partCount, List<TpchColumnDefinition<E>> columns, BufferAllocator allocator)
    {
        this(table, scaleFactor, part, partCount, columns, allocator, BATCH_SIZE);
    }

    public TpchBatchSource(TpchTableDefinition<E> table, double scaleFactor, int part, int partCount, List<TpchColumnDefinition<E>> columns, BufferAllocator allocator,
            int batchSize)
    {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
        }
        this.table = requireNonNull(table, "table is null");
        this.scaleFactor = scaleFactor;
        this.part = part;
        this.partCount = partCount;
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
        this.fields = this.columns.stream().map(TpchColumnDefinition::field).toList();
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.batchSize = batchSize;
        this.rows = new ArrayList<>(batchSize);
    }

    @Override
    public VectorSchemaRoot next()
    {
        if (finished) {
            return null;
        }
        if (generator == null) {
            // created here, not in the constructor: the first generator of a JVM builds the
            // shared text pool, which should happen on a worker thread
            generator = table.generate(scaleFactor, part, partCount).iterator();
        }
        while (rows.size() < batchSize && generator.hasNext()) {
            rows.add(generator.next());
        }
        int rowCount = rows.size();
        if (rowCount < batchSize) {
            finished = true;
        }
        if (rowCount == 0) {
            return null;
        }
        try {
            return toBatch(rowCount);
        }
        finally {
            rows.clear();
        }
    }

    private VectorSchemaRoot toBatch(int rowCount)
    {
        List<FieldVector> vectors = new ArrayList<>(columns.size());
        try {
            for (TpchColumnDefinition<E> column : columns) {
                FieldVector vector = column.field().createVector(allocator);
                vectors.add(vector);
                column.write(rows, vector);
            }
        }
        catch (RuntimeException | Error e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new VectorSchemaRoot(fields, vectors, rowCount);
    }

    @Override
    public void close()
    {
        finished = true;
        generator = null;
        rows.clear();
    }
}
