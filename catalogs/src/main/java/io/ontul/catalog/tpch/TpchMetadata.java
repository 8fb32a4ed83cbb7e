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
                new TableStatistics(definition.rowCount(scaleFactor.getAsDouble())),
                new TpchTableHandle(schema, scaleFactor.getAsDouble(), definition)));
    }
}
