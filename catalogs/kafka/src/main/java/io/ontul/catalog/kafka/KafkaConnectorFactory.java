package io.ontul.catalog.kafka;

import java.util.Map;

import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorFactory;

/**
 * {@code connector.name=kafka}: see {@link KafkaCatalogConfig} for the properties. Creating the
 * connector does not contact Kafka.
 */
public final class KafkaConnectorFactory
        implements ConnectorFactory
{
    @Override
    public String name()
    {
        return "kafka";
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
    {
        // before parsing: the clients' own parsing of the properties already loads the classes they name
        KafkaCatalogConfig.checkHostAccess(catalogName, config, context.hostAccess());
        return new KafkaConnector(KafkaCatalogConfig.parse(catalogName, config), context.store());
    }
}
