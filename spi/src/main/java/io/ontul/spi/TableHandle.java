package io.ontul.spi;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table as the planner sees it: its name, its columns as an Arrow schema, and statistics
 * used for join ordering. {@code connectorHandle} is the connector's own object, handed back
 * unchanged in {@link Connector#splits} and {@link Connector#createSink}.
 * <p>
 * Column types: Bool, Int(8/16/32/64, signed), FloatingPoint(SINGLE/DOUBLE), Decimal(p, s, 128),
 * Utf8, Date(DAY), Time(MILLISECOND, 32), Timestamp(MILLISECOND|MICROSECOND, no zone). A Utf8
 * field may carry metadata {@code ontul.type} = {@code CHAR(n)} or {@code VARCHAR(n)}.
 */
public record TableHandle(String catalog, String schema, String table, Schema columns, TableStatistics statistics, Object connectorHandle)
{
    public TableHandle
    {
        requireNonNull(catalog, "catalog is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(table, "table is null");
        requireNonNull(columns, "columns is null");
        requireNonNull(statistics, "statistics is null");
    }

    public String qualifiedName()
    {
        return catalog + "." + schema + "." + table;
    }
}
