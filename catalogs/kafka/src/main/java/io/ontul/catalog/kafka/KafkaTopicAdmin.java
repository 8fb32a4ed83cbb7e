package io.ontul.catalog.kafka;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * What the catalog asks the brokers outside of reading records: a topic's partitions, offsets and
 * a group's committed offsets. One admin client per catalog, created on first use (so a catalog
 * can be created while Kafka is down), every call bounded by {@code kafka.api-timeout}. Failures
 * become OntulExceptions naming the topic and the bootstrap servers. Thread-safe.
 */
public final class KafkaTopicAdmin
        implements AutoCloseable
{
    private final KafkaCatalogConfig config;
    private Admin admin;
    private boolean closed;

    public KafkaTopicAdmin(KafkaCatalogConfig config)
    {
        this.config = requireNonNull(config, "config is null");
    }

    /**
     * The partitions of a topic, in partition order.
     *
     * @throws OntulException NOT_FOUND if the topic does not exist, EXTERNAL_ERROR if Kafka fails
     */
    public List<TopicPartition> partitions(String topic)
    {
        DescribeTopicsOptions options = new DescribeTopicsOptions().timeoutMs(timeoutMillis());
        TopicDescription description = await(admin().describeTopics(List.of(topic), options).topicNameValues().get(topic), topic, "describing");
        List<TopicPartition> partitions = new ArrayList<>();
        description.partitions().forEach(partition -> partitions.add(new TopicPartition(topic, partition.partition())));
        partitions.sort(Comparator.comparingInt(TopicPartition::partition));
        return partitions;
    }

    /**
     * Offsets of the partitions for one kind of spec, as a read_committed consumer sees them: the
     * latest offset is the last stable offset. A timestamp spec with no record at or after the
     * timestamp gives -1.
     */
    public Map<TopicPartition, Long> offsets(String topic, Collection<TopicPartition> partitions, OffsetSpec spec)
    {
        return offsets(topic, partitions, spec, IsolationLevel.READ_COMMITTED);
    }

    /** The partitions' high watermarks: the end including records of transactions still open. */
    public Map<TopicPartition, Long> highWatermarks(String topic, Collection<TopicPartition> partitions)
    {
        return offsets(topic, partitions, OffsetSpec.latest(), IsolationLevel.READ_UNCOMMITTED);
    }

    private Map<TopicPartition, Long> offsets(String topic, Collection<TopicPartition> partitions, OffsetSpec spec, IsolationLevel isolation)
    {
        if (partitions.isEmpty()) {
            return Map.of();
        }
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(partition -> request.put(partition, spec));
        ListOffsetsOptions options = new ListOffsetsOptions(isolation).timeoutMs(timeoutMillis());
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result = await(admin().listOffsets(request, options).all(), topic, "reading offsets of");
        Map<TopicPartition, Long> offsets = new HashMap<>();
        result.forEach((partition, info) -> offsets.put(partition, info.offset()));
        return offsets;
    }

    /** The offsets the consumer group has committed for those partitions; partitions without one are left out. */
    public Map<TopicPartition, Long> committedOffsets(String topic, String groupId, Collection<TopicPartition> partitions)
    {
        Map<String, ListConsumerGroupOffsetsSpec> request = Map.of(groupId, new ListConsumerGroupOffsetsSpec().topicPartitions(partitions));
        ListConsumerGroupOffsetsOptions options = new ListConsumerGroupOffsetsOptions().timeoutMs(timeoutMillis());
        Map<TopicPartition, OffsetAndMetadata> committed = await(admin().listConsumerGroupOffsets(request, options).partitionsToOffsetAndMetadata(groupId), topic,
                "reading the offsets consumer group '" + groupId + "' committed for");
        Map<TopicPartition, Long> offsets = new HashMap<>();
        committed.forEach((partition, offset) -> {
            if (offset != null) {
                offsets.put(partition, offset.offset());
            }
        });
        return offsets;
    }

    /** Creates the topic with these settings unless it exists (a concurrent creation counts as existing). */
    public void ensureTopic(String topic, int partitions, Map<String, String> settings)
    {
        try {
            await(admin().createTopics(List.of(new NewTopic(topic, partitions, (short) -1).configs(settings))).all(), topic, "creating");
        }
        catch (OntulException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }

    /** Closes the admin client; later calls fail. */
    @Override
    public synchronized void close()
    {
        closed = true;
        if (admin != null) {
            admin.close(Duration.ofSeconds(1));
            admin = null;
        }
    }

    private synchronized Admin admin()
    {
        if (closed) {
            throw OntulException.userError(ErrorCode.NOT_FOUND, "Catalog '%s' was closed", config.catalogName());
        }
        if (admin == null) {
            try {
                admin = Admin.create(config.adminProperties());
            }
            catch (KafkaException e) {
                throw new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Cannot connect to Kafka at %s (catalog '%s'): %s",
                        config.bootstrapServers(), config.catalogName(), rootMessage(e)), e);
            }
        }
        return admin;
    }

    private int timeoutMillis()
    {
        return (int) Math.min(Integer.MAX_VALUE, config.apiTimeout().toMillis());
    }

    private <T> T await(KafkaFuture<T> future, String topic, String action)
    {
        try {
            // the client gives up after its own timeout; this bound only guards against a lost answer
            return future.get(config.apiTimeout().toMillis() + 2000, TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw OntulException.userError(ErrorCode.QUERY_CANCELLED, "Interrupted while %s topic '%s'", action, topic);
        }
        catch (TimeoutException e) {
            throw unreachable(topic, action, e);
        }
        catch (ExecutionException e) {
            throw translate(e.getCause(), topic, action);
        }
    }

    OntulException translate(Throwable failure, String topic, String action)
    {
        if (failure instanceof UnknownTopicOrPartitionException) {
            return topicNotFound(topic);
        }
        if (failure instanceof org.apache.kafka.common.errors.TimeoutException) {
            return unreachable(topic, action, failure);
        }
        if (failure instanceof AuthenticationException || failure instanceof AuthorizationException) {
            return new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Kafka at %s refused %s topic '%s' (check the catalog's security properties): %s",
                    config.bootstrapServers(), action, topic, rootMessage(failure)), failure);
        }
        return new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Kafka at %s failed %s topic '%s': %s",
                config.bootstrapServers(), action, topic, rootMessage(failure)), failure);
    }

    public OntulException topicNotFound(String topic)
    {
        return OntulException.userError(ErrorCode.NOT_FOUND, "Topic '%s' does not exist on %s", topic, config.bootstrapServers());
    }

    private OntulException unreachable(String topic, String action, Throwable cause)
    {
        return new OntulException(ErrorCode.EXTERNAL_ERROR, String.format("Kafka at %s did not answer within %s while %s topic '%s': is the broker running and reachable? (catalog property %s)",
                config.bootstrapServers(), KafkaDurations.format(config.apiTimeout()), action, topic, KafkaCatalogConfig.API_TIMEOUT), cause);
    }

    static String rootMessage(Throwable failure)
    {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
