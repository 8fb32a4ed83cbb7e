package io.ontul.catalog.kafka;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.arrow.memory.BufferAllocator;

import io.ontul.spi.BatchSink;
import io.ontul.spi.BatchSource;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorStore;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;
import io.ontul.spi.stream.StreamSink;
import io.ontul.spi.stream.StreamSinkProvider;
import io.ontul.spi.stream.StreamSourceProvider;

/**
 * Kafka topics as tables defined by DDL. A scan reads a bounded snapshot, one split per partition
 * (or offset range); an INSERT writes JSON (or raw) records in one Kafka transaction.
 */
public final class KafkaConnector
        implements Connector
{
    private final KafkaCatalogConfig config;
    private final KafkaTopicAdmin admin;
    private final KafkaMetadata metadata;
    private final KafkaSplitPlanner splitPlanner;
    private final KafkaStreamSourceProvider streamSource;
    private final AtomicLong skippedMalformedRecords = new AtomicLong();

    public KafkaConnector(KafkaCatalogConfig config, ConnectorStore store)
    {
        this.config = requireNonNull(config, "config is null");
        this.admin = new KafkaTopicAdmin(config);
        this.metadata = new KafkaMetadata(config.catalogName(), requireNonNull(store, "store is null"), admin);
        this.splitPlanner = new KafkaSplitPlanner(admin, skippedMalformedRecords);
        this.streamSource = new KafkaStreamSourceProvider(config, admin, splitPlanner);
    }

    @Override
    public KafkaMetadata metadata()
    {
        return metadata;
    }

    public KafkaCatalogConfig config()
    {
        return config;
    }

    /** The catalog's admin client: partitions, offsets, committed group offsets. */
    public KafkaTopicAdmin topicAdmin()
    {
        return admin;
    }

    @Override
    public List<Split> splits(TableHandle table, ScanSpec scan, int desiredSplits)
    {
        return splitPlanner.plan((KafkaTableDefinition) table.connectorHandle(), table.qualifiedName(), scan, desiredSplits);
    }

    @Override
    public BatchSource createSource(Split split, ScanSpec scan, BufferAllocator allocator)
    {
        return new KafkaBatchSource((KafkaSplit) split, scan.columns(), config, admin, allocator);
    }

    @Override
    public BatchSink createSink(TableHandle table)
    {
        return new KafkaBatchSink((KafkaTableDefinition) table.connectorHandle(), table.qualifiedName(), config, admin);
    }

    @Override
    public Optional<StreamSourceProvider> streamSourceProvider()
    {
        return Optional.of(streamSource);
    }

    @Override
    public Optional<StreamSinkProvider> streamSinkProvider()
    {
        return Optional.of(new StreamSinkProvider()
        {
            @Override
            public StreamSink createSink(TableHandle table, String jobId, BufferAllocator allocator)
            {
                return createSink(table, jobId, COMMITTER, allocator);
            }

            @Override
            public StreamSink createSink(TableHandle table, String jobId, String writer, BufferAllocator allocator)
            {
                return new KafkaStreamSink((KafkaTableDefinition) table.connectorHandle(), table.qualifiedName(), jobId, writer, config, admin, allocator);
            }
        });
    }

    /** Malformed records skipped by all scans of this catalog so far. */
    public long skippedMalformedRecords()
    {
        return skippedMalformedRecords.get();
    }

    @Override
    public void close()
    {
        admin.close();
    }
}
