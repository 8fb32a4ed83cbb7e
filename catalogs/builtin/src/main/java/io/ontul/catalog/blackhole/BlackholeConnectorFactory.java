package io.ontul.catalog.blackhole;

import java.util.Map;

import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorFactory;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * {@code connector.name=blackhole}: tables that take any rows and keep none, as Trino's
 * blackhole connector and Flink's blackhole sink: for measuring what a query or a streaming job
 * costs without the cost of storing its output. Takes no properties.
 */
public final class BlackholeConnectorFactory
        implements ConnectorFactory
{
    @Override
    public String name()
    {
        return "blackhole";
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
    {
        if (!config.isEmpty()) {
            String property = config.keySet().stream().sorted().findFirst().orElseThrow();
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': unknown property '%s' (the blackhole connector takes no properties)", catalogName, property);
        }
        return new BlackholeConnector(catalogName, context.store());
    }
}
