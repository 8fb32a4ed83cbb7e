package io.ontul.catalog.tpcds;

import java.util.Map;

import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorFactory;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * {@code connector.name=tpcds}: TPC-DS tables at any scale factor, generated on the fly by
 * io.trino.tpcds (a Java port of the benchmark's dsdgen). Takes no properties.
 */
public final class TpcdsConnectorFactory
        implements ConnectorFactory
{
    @Override
    public String name()
    {
        return "tpcds";
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
    {
        if (!config.isEmpty()) {
            String property = config.keySet().stream().sorted().findFirst().orElseThrow();
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': unknown property '%s' (the tpcds connector takes no properties)", catalogName, property);
        }
        return new TpcdsConnector(catalogName);
    }
}
