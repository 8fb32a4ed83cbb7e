package io.ontul.catalog.kafka;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.BufferAllocator;

import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorStore;

/** A connector context over a given allocator and store, as the engine would pass. */
final class TestingConnectorContext
        implements ConnectorContext
{
    private final BufferAllocator allocator;
    private final ConnectorStore store;

    TestingConnectorContext(BufferAllocator allocator, ConnectorStore store)
    {
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.store = requireNonNull(store, "store is null");
    }

    @Override
    public BufferAllocator allocator()
    {
        return allocator;
    }

    @Override
    public int parallelism()
    {
        return 2;
    }

    @Override
    public ConnectorStore store()
    {
        return store;
    }
}
