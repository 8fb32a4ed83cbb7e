package io.ontul.catalog.iceberg;

import java.util.Map;

import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorFactory;

/**
 * {@code connector.name=iceberg}: Iceberg tables in a Hadoop (directory), JDBC or REST catalog.
 * Properties are described in {@link IcebergConfig}; Iceberg's catalog is opened on first use.
 */
public final class IcebergConnectorFactory
        implements ConnectorFactory
{
    @Override
    public String name()
    {
        return "iceberg";
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
    {
        IcebergConfig icebergConfig = IcebergConfig.parse(catalogName, config, context.dataDirectory());
        icebergConfig.warehouse().ifPresent(warehouse -> context.hostAccess().checkLocation(catalogName, IcebergConfig.WAREHOUSE, warehouse));
        return new IcebergConnector(icebergConfig, context);
    }
}
