package io.ontul.catalog.iceberg;

import java.util.Locale;
import java.util.Map;

import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorFactory;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.HostAccessPolicy;
import io.ontul.spi.OntulException;

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
        if (icebergConfig.catalogType() == IcebergCatalogType.JDBC) {
            checkJdbcBackend(catalogName, icebergConfig.icebergProperties().get("uri"), context.hostAccess());
        }
        return new IcebergConnector(icebergConfig, context);
    }

    /**
     * The database of a JDBC catalog is reached as the JDBC catalogs' databases are: no URL
     * parameter that loads classes, runs scripts or opens files, and a driver the operator allows;
     * except SQLite, Iceberg's usual embedded backend, whose database file must lie inside
     * {@code ontul.security.allowed-paths} like a warehouse (and which may not load extensions).
     */
    private static void checkJdbcBackend(String catalogName, String url, HostAccessPolicy hostAccess)
    {
        if (url == null || !url.startsWith("jdbc:") || url.indexOf(':', 5) < 0) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': property '%s' must be a JDBC URL such as jdbc:sqlite:/var/lib/ontul/iceberg.db",
                    catalogName, IcebergConfig.JDBC_URL);
        }
        String subprotocol = url.substring(5, url.indexOf(':', 5)).toLowerCase(Locale.ROOT);
        String rest = url.substring(url.indexOf(':', 5) + 1);
        HostAccessPolicy.checkJdbcParameters(catalogName, IcebergConfig.JDBC_URL, rest);
        if (!subprotocol.equals("sqlite")) {
            hostAccess.checkJdbcDriver(catalogName, IcebergConfig.JDBC_URL, subprotocol);
            return;
        }
        if (rest.toLowerCase(Locale.ROOT).contains("load_extension")) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': property '%s' must not let SQLite load extensions: they run code on the server's host",
                    catalogName, IcebergConfig.JDBC_URL);
        }
        String file = rest.contains("?") ? rest.substring(0, rest.indexOf('?')) : rest;
        if (file.startsWith(":resource:")) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': property '%s' must name a database file, not a class path resource", catalogName, IcebergConfig.JDBC_URL);
        }
        if (!file.isEmpty() && !file.equals(":memory:")) {
            hostAccess.checkLocation(catalogName, IcebergConfig.JDBC_URL, file);
        }
    }
}
