package io.ontul.engine.catalog;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.arrow.memory.BufferAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.engine.metadata.CatalogSecrets;
import io.ontul.engine.metadata.MetadataStore;
import io.ontul.engine.metadata.StoredCatalog;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorFactory;
import io.ontul.spi.ConnectorStore;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The catalogs of the engine: one {@link Connector} per name, created from its configuration by
 * the {@link ConnectorFactory} named in {@code connector.name}.
 * <p>
 * Three kinds: built-in catalogs of the engine ({@code system}), configured ones
 * ({@code conf/catalogs/NAME.properties}, fixed while the server runs) and runtime ones
 * ({@code CREATE CATALOG}, kept in the {@link MetadataStore} and created again at start-up).
 * Thread-safe: catalogs may be created and dropped while queries run.
 */
public final class CatalogManager
        implements AutoCloseable
{
    private static final Logger log = LoggerFactory.getLogger(CatalogManager.class);

    private final Map<String, Connector> connectors = new ConcurrentHashMap<>();
    private final Map<String, BufferAllocator> allocators = new ConcurrentHashMap<>();
    private final Set<String> fixed = new HashSet<>();
    private final Map<String, ConnectorFactory> factories = new HashMap<>();
    private final BufferAllocator rootAllocator;
    private final int parallelism;
    private final MetadataStore metadata;
    private final Optional<Path> dataDirectory;
    private final io.ontul.spi.HostAccessPolicy hostAccess;
    private final CatalogSecrets secrets;

    /**
     * @param catalogs the configured catalogs, name to properties (with {@code connector.name})
     * @param builtIn catalogs the engine itself provides (such as {@code system}); their names
     *        are reserved: a configured catalog may not use them
     * @param metadata where runtime catalogs and the connectors' entries are kept
     */
    public CatalogManager(Map<String, Map<String, String>> catalogs, BufferAllocator rootAllocator, int parallelism, Map<String, Connector> builtIn,
            MetadataStore metadata, Optional<Path> dataDirectory)
    {
        this(catalogs, rootAllocator, parallelism, builtIn, metadata, dataDirectory, io.ontul.spi.HostAccessPolicy.DEFAULT, CatalogSecrets.plaintext());
    }

    /**
     * @param hostAccess what catalog configurations may reach on the host ({@code ontul.security.*})
     * @param secrets how the properties of runtime catalogs are sealed in the metadata store
     */
    public CatalogManager(Map<String, Map<String, String>> catalogs, BufferAllocator rootAllocator, int parallelism, Map<String, Connector> builtIn,
            MetadataStore metadata, Optional<Path> dataDirectory, io.ontul.spi.HostAccessPolicy hostAccess, CatalogSecrets secrets)
    {
        this.hostAccess = requireNonNull(hostAccess, "hostAccess is null");
        this.secrets = requireNonNull(secrets, "secrets is null");
        this.rootAllocator = requireNonNull(rootAllocator, "rootAllocator is null");
        this.parallelism = parallelism;
        this.metadata = requireNonNull(metadata, "metadata is null");
        this.dataDirectory = requireNonNull(dataDirectory, "dataDirectory is null");
        for (String name : builtIn.keySet()) {
            if (catalogs.containsKey(name)) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog name '%s' is reserved for the engine's built-in catalog: rename conf/catalogs/%s.properties", name, name);
            }
        }
        connectors.putAll(builtIn);
        fixed.addAll(builtIn.keySet());
        for (ConnectorFactory factory : ServiceLoader.load(ConnectorFactory.class)) {
            factories.put(factory.name(), factory);
        }
        for (Map.Entry<String, Map<String, String>> entry : catalogs.entrySet()) {
            Map<String, String> config = new LinkedHashMap<>(entry.getValue());
            String connectorName = config.remove("connector.name");
            connectors.put(entry.getKey(), createConnector(entry.getKey(), connectorName, config));
            fixed.add(entry.getKey());
        }
        for (StoredCatalog stored : metadata.catalogs(secrets).list()) {
            if (fixed.contains(stored.name())) {
                log.warn("Catalog '{}' created with CREATE CATALOG is hidden by the configured catalog of the same name", stored.name());
                continue;
            }
            try {
                connectors.put(stored.name(), createConnector(stored.name(), stored.connectorName(), stored.properties()));
            }
            catch (RuntimeException e) {
                // one broken catalog must not keep the server from starting: it can be dropped and created again
                log.error("Catalog '{}' (connector {}) cannot be created and is left out: {}", stored.name(), stored.connectorName(), e.getMessage());
            }
        }
    }

    public List<String> names()
    {
        return List.copyOf(new TreeMap<>(connectors).keySet());
    }

    public Optional<Connector> get(String catalog)
    {
        return Optional.ofNullable(connectors.get(catalog));
    }

    /**
     * The views of the catalogs ({@code CREATE VIEW}): Ontul keeps them in its metadata store for
     * every catalog, beside the connector's tables, since a view is Ontul's SQL and may read
     * several catalogs; dropping a runtime catalog drops its views.
     */
    public io.ontul.engine.metadata.StoredViews views()
    {
        return metadata.views();
    }

    /**
     * {@code CREATE CATALOG}: creates the connector (which checks its properties) and records the
     * catalog in the metadata store, so it exists again after a restart.
     *
     * @return false if a catalog of that name exists and {@code ifNotExists} is set
     * @throws OntulException ALREADY_EXISTS, INVALID_ARGUMENT for an unknown connector or property
     */
    public synchronized boolean create(String name, String connectorName, Map<String, String> properties, String user, boolean ifNotExists)
    {
        if (connectors.containsKey(name)) {
            if (ifNotExists) {
                return false;
            }
            throw OntulException.userError(ErrorCode.ALREADY_EXISTS, "Catalog '%s' already exists", name);
        }
        Connector connector = createConnector(name, connectorName, properties);
        boolean recorded;
        try {
            recorded = metadata.catalogs(secrets).create(new StoredCatalog(name, connectorName, properties), user);
        }
        catch (RuntimeException e) {
            closeConnector(name, connector);
            throw e;
        }
        if (!recorded) {
            // created meanwhile by another server sharing the metadata store
            closeConnector(name, connector);
            if (ifNotExists) {
                return false;
            }
            throw OntulException.userError(ErrorCode.ALREADY_EXISTS, "Catalog '%s' already exists", name);
        }
        connectors.put(name, connector);
        return true;
    }

    /**
     * {@code DROP CATALOG}: forgets a runtime catalog and everything its connector kept in the
     * metadata store (Kafka table definitions, say); the data in the systems it points at stays.
     *
     * @return false if there is no such catalog
     * @throws OntulException INVALID_ARGUMENT for a built-in or configured catalog
     */
    public synchronized boolean drop(String name)
    {
        if (fixed.contains(name)) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT,
                    "Catalog '%s' is configured in conf/catalogs/%s.properties or built in: remove the file and restart to drop it", name, name);
        }
        boolean existed = metadata.catalogs(secrets).delete(name);
        Connector connector = connectors.remove(name);
        if (connector != null) {
            closeConnector(name, connector);
        }
        return existed || connector != null;
    }

    private Connector createConnector(String name, String connectorName, Map<String, String> config)
    {
        ConnectorFactory factory = factories.get(connectorName);
        if (factory == null) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': unknown connector.name '%s' (available: %s)", name, connectorName, new TreeMap<>(factories).keySet());
        }
        BufferAllocator allocator = rootAllocator.newChildAllocator("catalog-" + name, 0, Long.MAX_VALUE);
        ConnectorStore store = metadata.connectorStore(name);
        try {
            Connector connector = factory.create(name, Map.copyOf(config), new ConnectorContext()
            {
                @Override
                public BufferAllocator allocator()
                {
                    return allocator;
                }

                @Override
                public int parallelism()
                {
                    return parallelism;
                }

                @Override
                public Optional<Path> dataDirectory()
                {
                    return dataDirectory;
                }

                @Override
                public io.ontul.spi.HostAccessPolicy hostAccess()
                {
                    return hostAccess;
                }

                @Override
                public ConnectorStore store()
                {
                    return store;
                }
            });
            allocators.put(name, allocator);
            return connector;
        }
        catch (RuntimeException e) {
            allocator.close();
            throw e;
        }
    }

    private void closeConnector(String name, Connector connector)
    {
        try {
            connector.close();
        }
        catch (Exception e) {
            log.warn("Closing catalog '{}' failed: {}", name, e.getMessage());
        }
        BufferAllocator allocator = allocators.remove(name);
        if (allocator != null) {
            allocator.close();
        }
    }

    @Override
    public synchronized void close()
    {
        for (String name : List.copyOf(connectors.keySet())) {
            closeConnector(name, connectors.remove(name));
        }
    }
}
