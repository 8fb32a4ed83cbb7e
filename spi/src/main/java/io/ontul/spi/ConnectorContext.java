package io.ontul.spi;

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
}
