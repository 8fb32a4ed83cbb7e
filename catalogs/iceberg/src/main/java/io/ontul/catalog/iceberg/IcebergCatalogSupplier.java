package io.ontul.catalog.iceberg;

import static java.util.Objects.requireNonNull;

import java.io.Closeable;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates Iceberg's catalog for the connector on first use rather than at server start, so an
 * unreachable database or REST server fails the queries that need it (with an EXTERNAL error)
 * instead of the server. A failed creation is retried on the next use.
 */
final class IcebergCatalogSupplier
        implements Closeable
{
    private static final Logger LOG = LoggerFactory.getLogger(IcebergCatalogSupplier.class);

    private final IcebergConfig config;
    private Catalog catalog;
    private boolean closed;

    IcebergCatalogSupplier(IcebergConfig config)
    {
        this.config = requireNonNull(config, "config is null");
    }

    synchronized Catalog catalog()
    {
        if (closed) {
            throw new IllegalStateException("catalog '" + config.catalogName() + "' is closed");
        }
        if (catalog == null) {
            catalog = create();
        }
        return catalog;
    }

    SupportsNamespaces namespaces()
    {
        Catalog current = catalog();
        if (current instanceof SupportsNamespaces namespaces) {
            return namespaces;
        }
        throw new IllegalStateException(current.getClass().getName() + " does not support namespaces");
    }

    private Catalog create()
    {
        Configuration hadoopConfiguration = hadoopConfiguration(config.hadoopProperties());
        Map<String, String> properties = new HashMap<>(config.icebergProperties());
        try {
            Catalog created = switch (config.catalogType()) {
                case HADOOP -> {
                    HadoopCatalog hadoop = new HadoopCatalog();
                    hadoop.setConf(hadoopConfiguration);
                    hadoop.initialize(config.catalogName(), properties);
                    yield hadoop;
                }
                case JDBC -> CatalogUtil.loadCatalog(JdbcCatalog.class.getName(), config.catalogName(), properties, hadoopConfiguration);
                case REST -> CatalogUtil.loadCatalog(RESTCatalog.class.getName(), config.catalogName(), properties, hadoopConfiguration);
            };
            LOG.info("Opened {}", config);
            return created;
        }
        catch (RuntimeException e) {
            throw IcebergErrors.external(config, "could not be opened", e);
        }
    }

    /**
     * Local warehouses ({@code file:}) use {@link NioLocalFileSystem}: no {@code .crc} files and
     * no forked {@code chmod} per file; files are created 0600 and directories 0700. It is not cached, so no other user of Hadoop's JVM-wide
     * FileSystem cache gets it or gives us theirs.
     */
    static Configuration hadoopConfiguration(Map<String, String> overrides)
    {
        Configuration configuration = new Configuration();
        configuration.set("fs.file.impl", NioLocalFileSystem.class.getName());
        configuration.setBoolean("fs.file.impl.disable.cache", true);
        // Hadoop sets the mode of what it creates itself (0644 files, 0755 directories by default,
        // whatever the process umask): a warehouse is its owner's only unless a catalog says otherwise
        configuration.set(NioLocalFileSystem.UMASK, "077");
        overrides.forEach(configuration::set);
        return configuration;
    }

    @Override
    public synchronized void close()
    {
        closed = true;
        if (catalog instanceof Closeable closeable) {
            try {
                closeable.close();
            }
            catch (IOException | RuntimeException e) {
                LOG.warn("Closing {} failed", config, e);
            }
        }
        catalog = null;
    }
}
