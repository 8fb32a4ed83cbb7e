package io.ontul.spi;

import java.nio.file.Path;
import java.util.Optional;

import org.apache.arrow.memory.BufferAllocator;

/**
 * What the engine gives a connector when it creates it.
 */
public interface ConnectorContext
{
    /**
     * An allocator for data the connector keeps between queries (for example the rows of memory
     * tables). It is a child of the engine's root allocator, so what a connector holds counts
     * against the engine's memory.
     */
    BufferAllocator allocator();

    /** Number of worker threads; connectors use it to choose how many splits to make. */
    int parallelism();

    /**
     * The server's data directory ({@code ontul.data-dir}), where a connector may keep local data
     * by default (the Iceberg warehouse, say). Empty for an engine without one (tests); then a
     * connector that needs a location must ask for it in its configuration.
     */
    default Optional<Path> dataDirectory()
    {
        return Optional.empty();
    }

    /** What the catalog's configuration may reach on the host: check drivers before loading them. */
    default HostAccessPolicy hostAccess()
    {
        return HostAccessPolicy.DEFAULT;
    }

    /** The catalog's durable entries in Ontul's metadata store. */
    ConnectorStore store();
}
