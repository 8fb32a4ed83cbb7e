package io.ontul.catalog.memory;

import java.util.Map;

import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorFactory;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * {@code connector.name=memory}: tables kept in memory, in the allocator the engine gives the
 * catalog. Takes no properties.
 */
public final class MemoryConnectorFactory
        implements ConnectorFactory
{
    @Override
    public String name()
    {
        return "memory";
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
    {
        if (!config.isEmpty()) {
            String property = config.keySet().stream().sorted().findFirst().orElseThrow();
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': unknown property '%s' (the memory connector takes no properties)", catalogName, property);
        }
        return new MemoryConnector(catalogName, context.allocator());
    }
}
