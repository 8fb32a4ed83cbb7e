package io.ontul.spi;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A GROUP BY the engine asks a source to compute (see {@link ScanSpec} and
 * {@link Connector#supportsAggregation}): one row per distinct combination of the grouping
 * columns' values among the rows that pass the scan's filters, NULL being a value of its own.
 * With no grouping columns there is exactly one row, even when no row passes the filters.
 * <p>
 * A row holds the grouping columns, in order and with their table types, then the value of each
 * aggregate, in order and of its {@link AggregateFunction#outputType()}: see
 * {@link #outputSchema}. A grouping column may be listed more than once; it is returned each time.
 */
public record Aggregation(List<String> groupingColumns, List<AggregateFunction> aggregates)
{
    public Aggregation
    {
        groupingColumns = List.copyOf(requireNonNull(groupingColumns, "groupingColumns is null"));
        aggregates = List.copyOf(requireNonNull(aggregates, "aggregates is null"));
        if (groupingColumns.isEmpty() && aggregates.isEmpty()) {
            throw new IllegalArgumentException("an aggregation needs a grouping column or an aggregate");
        }
    }

    /**
     * The schema of the rows: the grouping columns' fields of {@code tableColumns}, then one
     * nullable field per aggregate named {@code _aggregate<i>}.
     *
     * @throws IllegalArgumentException if a grouping column is not in {@code tableColumns}
     */
    public Schema outputSchema(Schema tableColumns)
    {
        List<Field> fields = new ArrayList<>();
        for (String column : groupingColumns) {
            fields.add(tableColumns.findField(column));
        }
        for (int i = 0; i < aggregates.size(); i++) {
            fields.add(Field.nullable("_aggregate" + i, aggregates.get(i).outputType()));
        }
        return new Schema(fields);
    }

    /** {@code GROUP BY a, b; COUNT(*), SUM(c)}, as EXPLAIN shows it. */
    @Override
    public String toString()
    {
        String functions = String.join(", ", aggregates.stream().map(AggregateFunction::toString).toList());
        if (groupingColumns.isEmpty()) {
            return functions;
        }
        return "GROUP BY " + String.join(", ", groupingColumns) + (aggregates.isEmpty() ? "" : "; " + functions);
    }
}
