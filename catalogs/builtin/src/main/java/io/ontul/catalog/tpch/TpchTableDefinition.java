package io.ontul.catalog.tpch;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.function.DoubleToLongFunction;

import org.apache.arrow.vector.types.pojo.Schema;

import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;

/**
 * One TPC-H table: its columns in specification order, the io.trino.tpch generator of its rows,
 * and its row count as a function of the scale factor.
 */
public final class TpchTableDefinition<E extends TpchEntity>
{
    /** Fewest rows worth a split of their own when a table is cut into parts. */
    static final long MIN_ROWS_PER_SPLIT = 10_000;

    private final TpchTable<E> generator;
    private final List<TpchColumnDefinition<E>> columns;
    private final Schema schema;
    private final DoubleToLongFunction rowCount;
    private final boolean splittable;

    TpchTableDefinition(TpchTable<E> generator, List<TpchColumnDefinition<E>> columns, DoubleToLongFunction rowCount, boolean splittable)
    {
        this.generator = requireNonNull(generator, "generator is null");
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
        this.rowCount = requireNonNull(rowCount, "rowCount is null");
        this.splittable = splittable;
        this.schema = new Schema(this.columns.stream().map(TpchColumnDefinition::field).toList());
    }

    public String name()
    {
        return generator.getTableName();
    }

    public List<TpchColumnDefinition<E>> columns()
    {
        return columns;
    }

    public Optional<TpchColumnDefinition<E>> column(String name)
    {
        return columns.stream().filter(column -> column.name().equals(name)).findFirst();
    }

    public Schema schema()
    {
        return schema;
    }

    /** The number of rows at {@code scaleFactor}: exact, except lineitem at unusual scales. */
    public long rowCount(double scaleFactor)
    {
        return rowCount.applyAsLong(scaleFactor);
    }

    /**
     * How many parts to cut a scan into: at most {@code desiredSplits}, and few enough that each
     * part has about {@link #MIN_ROWS_PER_SPLIT} rows or more.
     */
    public int splitCount(double scaleFactor, int desiredSplits)
    {
        if (!splittable) {
            return 1;
        }
        long bySize = Math.max(1, rowCount(scaleFactor) / MIN_ROWS_PER_SPLIT);
        return (int) Math.min(Math.max(1, desiredSplits), bySize);
    }

    /** Rows of part {@code part} (1-based) of {@code partCount}, as io.trino.tpch generates them. */
    Iterable<E> generate(double scaleFactor, int part, int partCount)
    {
        return generator.createGenerator(scaleFactor, part, partCount);
    }

    @Override
    public String toString()
    {
        return name();
    }
}
