package io.ontul.catalog.tpch;

import java.util.Map;

import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorFactory;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * {@code connector.name=tpch}: TPC-H tables at any scale factor, generated on the fly. Takes no
 * properties.
 */
public final class TpchConnectorFactory
        implements ConnectorFactory
{
    @Override
    public String name()
    {
        return "tpch";
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
    {
        if (!config.isEmpty()) {
            String property = config.keySet().stream().sorted().findFirst().orElseThrow();
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': unknown property '%s' (the tpch connector takes no properties)", catalogName, property);
        }
        return new TpchConnector(catalogName);
    }
}
