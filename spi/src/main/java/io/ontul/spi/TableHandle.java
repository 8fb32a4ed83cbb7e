package io.ontul.spi;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table as the planner sees it: its name, its columns as an Arrow schema, and statistics
 * used for join ordering. {@code connectorHandle} is the connector's own object, handed back
 * unchanged in {@link Connector#splits} and {@link Connector#createSink}.
 * <p>
 * Column types: Bool, Int(8/16/32/64, signed), FloatingPoint(SINGLE/DOUBLE), Decimal(p, s, 128),
 * Utf8, Binary (VARBINARY), Date(DAY), Time(MILLISECOND, 32), Timestamp(MILLISECOND|MICROSECOND,
 * no zone). A Utf8 field may carry metadata {@code ontul.type} = {@code CHAR(n)} or
 * {@code VARCHAR(n)}, or {@code UUID}: then its cells are UUIDs in canonical text (36 lower-case
 * characters).
 * A field with metadata {@code ontul.hidden} = {@code true} is a hidden column (Kafka's
 * {@code _offset}, say): selected by name, left out of {@code SELECT *}; hidden columns come
 * after the others and are never written by INSERT.
 */
public record TableHandle(String catalog, String schema, String table, Schema columns, TableStatistics statistics, Object connectorHandle)
{
    /** Field metadata key of a column's SQL type where its Arrow type does not tell it ({@code CHAR(n)}, {@code VARCHAR(n)}, {@code UUID}). */
    public static final String TYPE_METADATA = "ontul.type";
    /** {@link #TYPE_METADATA} of a UUID column (Utf8 cells in canonical text). */
    public static final String UUID_TYPE = "UUID";

    /** Whether {@code field} is a UUID column. */
    public static boolean isUuid(org.apache.arrow.vector.types.pojo.Field field)
    {
        return field.getMetadata() != null && UUID_TYPE.equals(field.getMetadata().get(TYPE_METADATA));
    }

    /** Field metadata key that marks a hidden column (value {@code true}). */
    public static final String HIDDEN_COLUMN = "ontul.hidden";

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

    /**
     * The table's primary key: the first unique key its catalog reports ({@link TableStatistics#uniqueKeys})
     * whose columns are all NOT NULL (tpch: the TPC-H primary keys).
     */
    public java.util.Optional<java.util.List<String>> primaryKey()
    {
        return statistics.uniqueKeys().stream()
                .filter(key -> !key.isEmpty() && key.stream().allMatch(column -> columns.getFields().stream()
                        .anyMatch(field -> field.getName().equals(column) && !field.isNullable())))
                .findFirst();
    }
}
