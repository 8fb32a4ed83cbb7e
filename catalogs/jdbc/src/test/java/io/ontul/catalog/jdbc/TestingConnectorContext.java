package io.ontul.catalog.jdbc;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.BufferAllocator;

import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorStore;
import io.ontul.spi.HostAccessPolicy;
import io.ontul.spi.InMemoryConnectorStore;

record TestingConnectorContext(BufferAllocator allocator, int parallelism, ConnectorStore store, HostAccessPolicy hostAccess)
        implements ConnectorContext
{
    TestingConnectorContext
    {
        requireNonNull(allocator, "allocator is null");
        requireNonNull(store, "store is null");
        requireNonNull(hostAccess, "hostAccess is null");
    }

    TestingConnectorContext(BufferAllocator allocator, int parallelism, ConnectorStore store)
    {
        this(allocator, parallelism, store, HostAccessPolicy.DEFAULT);
    }

    TestingConnectorContext(BufferAllocator allocator)
    {
        this(allocator, 4, new InMemoryConnectorStore());
    }
}
