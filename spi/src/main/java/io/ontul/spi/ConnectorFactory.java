package io.ontul.spi;

import java.util.Map;

/**
 * Creates connectors of one kind. Factories are found with {@link java.util.ServiceLoader}; a
 * catalog file {@code conf/catalogs/NAME.properties} with {@code connector.name=X} is served by the
 * factory whose {@link #name()} is X, called once per catalog.
 */
public interface ConnectorFactory
{
    /** The value users write in {@code connector.name}. */
    String name();

    /**
     * @param catalogName the catalog's name (the file name without {@code .properties})
     * @param config every property of the catalog file except {@code connector.name}
     * @throws OntulException USER_ERROR for a bad or unknown property, naming it
     */
    Connector create(String catalogName, Map<String, String> config, ConnectorContext context);
}
