package io.ontul.catalog.blackhole;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.spi.BatchSink;
import io.ontul.spi.BatchSource;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ConnectorStore;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;
import io.ontul.spi.stream.StreamSink;
import io.ontul.spi.stream.StreamSinkProvider;

/**
 * Tables whose definitions are kept (in the catalog's store, so they survive restarts) and whose
 * rows are not: INSERT and streaming jobs write into them and count what they wrote, a scan reads
 * no rows.
 */
public final class BlackholeConnector
        implements Connector
{
    private final BlackholeMetadata metadata;

    public BlackholeConnector(String catalogName, ConnectorStore store)
    {
        this.metadata = new BlackholeMetadata(catalogName, requireNonNull(store, "store is null"));
    }

    @Override
    public ConnectorMetadata metadata()
    {
        return metadata;
    }

    @Override
    public List<Split> splits(TableHandle table, ScanSpec scan, int desiredSplits)
    {
        return List.of();
    }

    @Override
    public BatchSource createSource(Split split, ScanSpec scan, BufferAllocator allocator)
    {
        throw new IllegalStateException("a blackhole table has no splits");
    }

    @Override
    public BatchSink createSink(TableHandle table)
    {
        return new BatchSink()
        {
            private final AtomicLong rows = new AtomicLong();

            @Override
            public void append(VectorSchemaRoot batch)
            {
                rows.addAndGet(batch.getRowCount());
            }

            @Override
            public long commit()
            {
                return rows.get();
            }

            @Override
            public void abort()
            {
                rows.set(0);
            }
        };
    }

    @Override
    public BatchSink createOverwriteSink(TableHandle table)
    {
        return createSink(table);
    }

    @Override
    public Optional<StreamSinkProvider> streamSinkProvider()
    {
        // the job counts the rows it writes (records_out); the sink keeps nothing
        return Optional.of((table, jobId, allocator) -> new StreamSink()
        {
            @Override
            public void write(VectorSchemaRoot batch)
            {
            }

            @Override
            public byte[] prepareCommit(long checkpointId)
            {
                return new byte[0];
            }

            @Override
            public void commit(long checkpointId, List<byte[]> committables)
            {
                // nothing is kept
            }

            @Override
            public void abort()
            {
            }

            @Override
            public void close()
            {
            }
        });
    }

    @Override
    public void close()
    {
    }
}
