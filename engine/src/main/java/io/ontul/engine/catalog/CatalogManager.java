package io.ontul.engine.catalog;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;

import org.apache.arrow.memory.BufferAllocator;

import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorFactory;
import io.ontul.spi.ConnectorStore;
import io.ontul.spi.InMemoryConnectorStore;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The catalogs of the engine: one {@link Connector} per name, created from its configuration by
 * the {@link ConnectorFactory} named in {@code connector.name}.
 */
public final class CatalogManager
        implements AutoCloseable
{
    private final Map<String, Connector> connectors = new TreeMap<>();
    private final Map<String, BufferAllocator> allocators = new HashMap<>();

    public CatalogManager(Map<String, Map<String, String>> catalogs, BufferAllocator rootAllocator, int parallelism)
    {
        this(catalogs, rootAllocator, parallelism, Map.of());
    }

    /**
     * @param builtIn catalogs the engine itself provides (such as {@code system}); their names
     *        are reserved: a configured catalog may not use them
     */
    public CatalogManager(Map<String, Map<String, String>> catalogs, BufferAllocator rootAllocator, int parallelism, Map<String, Connector> builtIn)
    {
        for (String name : builtIn.keySet()) {
            if (catalogs.containsKey(name)) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog name '%s' is reserved for the engine's built-in catalog: rename conf/catalogs/%s.properties", name, name);
            }
        }
        connectors.putAll(builtIn);
        Map<String, ConnectorFactory> factories = new HashMap<>();
        for (ConnectorFactory factory : ServiceLoader.load(ConnectorFactory.class)) {
            factories.put(factory.name(), factory);
        }
        for (Map.Entry<String, Map<String, String>> entry : catalogs.entrySet()) {
            String name = entry.getKey();
            Map<String, String> config = new LinkedHashMap<>(entry.getValue());
            String connectorName = config.remove("connector.name");
            ConnectorFactory factory = factories.get(connectorName);
            if (factory == null) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': unknown connector.name '%s' (available: %s)", name, connectorName, new TreeMap<>(factories).keySet());
            }
            ConnectorStore store = new InMemoryConnectorStore();
            BufferAllocator allocator = rootAllocator.newChildAllocator("catalog-" + name, 0, Long.MAX_VALUE);
            allocators.put(name, allocator);
            connectors.put(name, factory.create(name, Map.copyOf(config), new ConnectorContext()
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
                public ConnectorStore store()
                {
                    return store;
                }
            }));
        }
    }

    public List<String> names()
    {
        return List.copyOf(connectors.keySet());
    }

    public Optional<Connector> get(String catalog)
    {
        return Optional.ofNullable(connectors.get(catalog));
    }

    @Override
    public synchronized void close()
    {
        connectors.values().forEach(connector -> {
            try {
                connector.close();
            }
            catch (Exception ignored) {
                // closing at shutdown: nothing useful to do with the failure
            }
        });
        connectors.clear();
        allocators.values().forEach(BufferAllocator::close);
        allocators.clear();
    }
}
