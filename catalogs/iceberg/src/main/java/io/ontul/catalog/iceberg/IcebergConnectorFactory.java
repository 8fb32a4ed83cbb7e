package io.ontul.catalog.iceberg;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

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
        checkPassedThrough(catalogName, config, context.hostAccess());
        icebergConfig.warehouse().ifPresent(warehouse -> context.hostAccess().checkLocation(catalogName, IcebergConfig.WAREHOUSE, warehouse));
        if (icebergConfig.catalogType() == IcebergCatalogType.JDBC) {
            checkJdbcBackend(catalogName, icebergConfig.icebergProperties().get("uri"), context.hostAccess());
        }
        return new IcebergConnector(icebergConfig, context);
    }

    /**
     * Properties passed through to Iceberg's catalog ({@code iceberg.catalog.*}) and to Hadoop
     * ({@code iceberg.hadoop.*}) must not load code or read files on the server's host: names
     * that load a class ({@code io-impl}, {@code metrics-reporter-impl}, Hadoop's
     * {@code fs.file.impl}, any {@code *class*}, {@code *factory*}) or read files through a
     * provider ({@code hadoop.security.credential.provider.path}) are refused unless the operator
     * allowed them by name ({@link HostAccessPolicy#ALLOWED_CLIENT_PROPERTIES}); the JDBC
     * backend's driver properties ({@code iceberg.catalog.jdbc.*}) are checked as URL parameters
     * of JDBC catalogs are, and the TLS files they name must lie inside the allowed directories.
     */
    private static void checkPassedThrough(String catalogName, Map<String, String> config, HostAccessPolicy hostAccess)
    {
        for (Map.Entry<String, String> entry : new TreeMap<>(config).entrySet()) {
            String key = entry.getKey();
            String prefix = key.startsWith(IcebergConfig.CATALOG_PROPERTY_PREFIX) ? IcebergConfig.CATALOG_PROPERTY_PREFIX
                    : key.startsWith(IcebergConfig.HADOOP_PROPERTY_PREFIX) ? IcebergConfig.HADOOP_PROPERTY_PREFIX : null;
            if (prefix == null) {
                continue;
            }
            String name = key.substring(prefix.length());
            if (prefix.equals(IcebergConfig.CATALOG_PROPERTY_PREFIX) && name.startsWith("jdbc.")) {
                String parameter = "?" + name.substring("jdbc.".length()) + "=" + entry.getValue();
                HostAccessPolicy.checkJdbcParameters(catalogName, key, parameter);
                hostAccess.checkJdbcFiles(catalogName, key, parameter);
                continue;
            }
            String lower = name.toLowerCase(Locale.ROOT);
            if (lower.endsWith("impl") || lower.contains("class") || lower.contains("factory") || lower.contains("provider")) {
                hostAccess.checkClientProperty(catalogName, key, name, "loads classes by name or reads files through a provider");
            }
        }
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
            hostAccess.checkJdbcFiles(catalogName, IcebergConfig.JDBC_URL, rest);
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
