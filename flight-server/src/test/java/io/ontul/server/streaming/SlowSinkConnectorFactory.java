package io.ontul.server.streaming;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.spi.BatchSink;
import io.ontul.spi.BatchSource;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorFactory;
import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;
import io.ontul.spi.stream.StreamSink;
import io.ontul.spi.stream.StreamSinkProvider;
import io.ontul.spi.stream.StreamSourceProvider;

/**
 * Test connector {@code slow-iceberg}: the real Iceberg connector whose streaming sinks wait
 * {@code slow.write-delay-ms} before every write, a sink slowed on purpose to show back-pressure.
 * Everything else is Iceberg's own.
 */
public final class SlowSinkConnectorFactory
        implements ConnectorFactory
{
    public static final String DELAY = "slow.write-delay-ms";

    @Override
    public String name()
    {
        return "slow-iceberg";
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
    {
        Map<String, String> icebergConfig = new HashMap<>(config);
        long delayMillis = Long.parseLong(icebergConfig.remove(DELAY));
        ConnectorFactory iceberg = ServiceLoader.load(ConnectorFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(factory -> factory.name().equals("iceberg"))
                .findFirst()
                .orElseThrow();
        Connector delegate = iceberg.create(catalogName, icebergConfig, context);
        return new Connector()
        {
            @Override
            public ConnectorMetadata metadata()
            {
                return delegate.metadata();
            }

            @Override
            public List<Split> splits(TableHandle table, ScanSpec scan, int desiredSplits)
            {
                return delegate.splits(table, scan, desiredSplits);
            }

            @Override
            public BatchSource createSource(Split split, ScanSpec scan, BufferAllocator allocator)
            {
                return delegate.createSource(split, scan, allocator);
            }

            @Override
            public BatchSink createSink(TableHandle table)
            {
                return delegate.createSink(table);
            }

            @Override
            public BatchSink createTableAs(String schema, String table, Schema columns, Map<String, Object> properties)
            {
                return delegate.createTableAs(schema, table, columns, properties);
            }

            @Override
            public Optional<StreamSourceProvider> streamSourceProvider()
            {
                return delegate.streamSourceProvider();
            }

            @Override
            public Optional<StreamSinkProvider> streamSinkProvider()
            {
                return delegate.streamSinkProvider().map(provider -> (table, jobId, allocator) -> slow(provider.createSink(table, jobId, allocator), delayMillis));
            }

            @Override
            public void close()
            {
                delegate.close();
            }
        };
    }

    private static StreamSink slow(StreamSink sink, long delayMillis)
    {
        return new StreamSink()
        {
            @Override
            public void write(VectorSchemaRoot batch)
            {
                try {
                    Thread.sleep(delayMillis);
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
                sink.write(batch);
            }

            @Override
            public byte[] prepareCommit(long checkpointId)
            {
                return sink.prepareCommit(checkpointId);
            }

            @Override
            public void commit(long checkpointId, List<byte[]> committables)
            {
                sink.commit(checkpointId, committables);
            }

            @Override
            public void abort()
            {
                sink.abort();
            }

            @Override
            public void close()
            {
                sink.close();
            }
        };
    }
}
