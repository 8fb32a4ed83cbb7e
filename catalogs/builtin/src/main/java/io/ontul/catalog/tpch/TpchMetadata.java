package io.ontul.catalog.tpch;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.TableHandle;
import io.ontul.spi.TableStatistics;

/**
 * The schemas ({@link TpchSchemas}) and tables ({@link TpchTables}) of a tpch catalog. Read-only
 * and stateless.
 */
public final class TpchMetadata
        implements ConnectorMetadata
{
    private final String catalogName;

    public TpchMetadata(String catalogName)
    {
        this.catalogName = requireNonNull(catalogName, "catalogName is null");
    }

    @Override
    public List<String> listSchemas()
    {
        return TpchSchemas.LISTED;
    }

    @Override
    public List<String> listTables(String schema)
    {
        if (TpchSchemas.scaleFactor(schema).isEmpty()) {
            return List.of();
        }
        return TpchTables.ALL.stream().map(TpchTableDefinition::name).toList();
    }

    /** The TPC-H specification's primary keys. */
    private static java.util.List<java.util.List<String>> primaryKey(String table)
    {
        java.util.List<String> key = switch (table) {
            case "nation" -> java.util.List.of("n_nationkey");
            case "region" -> java.util.List.of("r_regionkey");
            case "part" -> java.util.List.of("p_partkey");
            case "supplier" -> java.util.List.of("s_suppkey");
            case "partsupp" -> java.util.List.of("ps_partkey", "ps_suppkey");
            case "customer" -> java.util.List.of("c_custkey");
            case "orders" -> java.util.List.of("o_orderkey");
            case "lineitem" -> java.util.List.of("l_orderkey", "l_linenumber");
            default -> java.util.List.of();
        };
        return key.isEmpty() ? java.util.List.of() : java.util.List.of(key);
    }

    @Override
    public Optional<TableHandle> getTable(String schema, String table)
    {
        OptionalDouble scaleFactor = TpchSchemas.scaleFactor(schema);
        if (scaleFactor.isEmpty()) {
            return Optional.empty();
        }
        return TpchTables.byName(table).map(definition -> new TableHandle(
                catalogName,
                schema,
                table,
                definition.schema(),
                new TableStatistics(definition.rowCount(scaleFactor.getAsDouble()), primaryKey(table)),
                new TpchTableHandle(schema, scaleFactor.getAsDouble(), definition)));
    }
}
