package io.ontul.catalog.kafka;

import static java.util.Objects.requireNonNull;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

import io.ontul.spi.ColumnPredicate;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;

/**
 * Turns a scan of a Kafka table into splits: per partition, the offsets from the startup mode's
 * position to the end offsets at query start (last stable offsets, as read_committed readers see
 * them), narrowed by filters on {@code _partition}, {@code _offset} and {@code _timestamp}, and
 * cut into several ranges when a partition holds many more records than a split should.
 */
final class KafkaSplitPlanner
{
    /** A partition is cut into ranges of at least this many offsets. */
    static final long MIN_OFFSETS_PER_SPLIT = 100_000;

    private final KafkaTopicAdmin admin;
    private final AtomicLong malformedTotal;

    KafkaSplitPlanner(KafkaTopicAdmin admin, AtomicLong malformedTotal)
    {
        this.admin = requireNonNull(admin, "admin is null");
        this.malformedTotal = requireNonNull(malformedTotal, "malformedTotal is null");
    }

    List<Split> plan(KafkaTableDefinition table, String qualifiedName, ScanSpec scan, int desiredSplits)
    {
        String topic = table.topic();
        List<TopicPartition> partitions;
        try {
            partitions = admin.partitions(topic);
        }
        catch (OntulException e) {
            if (e.code() == ErrorCode.NOT_FOUND) {
                throw new OntulException(ErrorCode.NOT_FOUND, e.getMessage() + ": table '" + qualifiedName + "' reads it (recreate the topic or drop the table)", e);
            }
            throw e;
        }
        partitions = partitions.stream().filter(partition -> mayHold(scan, KafkaHiddenColumns.PARTITION, partition.partition())).toList();

        Map<TopicPartition, Long> ends = admin.offsets(topic, partitions, OffsetSpec.latest());
        Map<TopicPartition, Long> starts = startOffsets(table, partitions, ends);

        OptionalLong minimumTimestamp = minimumTimestamp(scan);
        if (minimumTimestamp.isPresent()) {
            Map<TopicPartition, Long> byTimestamp = admin.offsets(topic, partitions, OffsetSpec.forTimestamp(minimumTimestamp.getAsLong()));
            for (TopicPartition partition : partitions) {
                long offset = byTimestamp.getOrDefault(partition, -1L);
                starts.put(partition, Math.max(starts.get(partition), offset < 0 ? ends.get(partition) : offset));
            }
        }
        long[] offsetRange = offsetRange(scan);

        List<long[]> ranges = new ArrayList<>();
        long total = 0;
        for (TopicPartition partition : partitions) {
            long end = Math.min(ends.get(partition), offsetRange[1]);
            long start = Math.max(starts.get(partition), offsetRange[0]);
            if (start < end) {
                ranges.add(new long[] {partition.partition(), start, end});
                total += end - start;
            }
        }
        long perSplit = Math.max(MIN_OFFSETS_PER_SPLIT, (total + Math.max(1, desiredSplits) - 1) / Math.max(1, desiredSplits));
        List<long[]> pieces = new ArrayList<>();
        for (long[] range : ranges) {
            long count = range[2] - range[1];
            long pieceCount = (count + perSplit - 1) / perSplit;
            for (long piece = 0; piece < pieceCount; piece++) {
                pieces.add(new long[] {range[0], range[1] + count * piece / pieceCount, range[1] + count * (piece + 1) / pieceCount});
            }
        }
        KafkaMalformedRecords malformedRecords = new KafkaMalformedRecords(qualifiedName, topic, pieces.size(), malformedTotal);
        List<Split> splits = new ArrayList<>(pieces.size());
        for (long[] piece : pieces) {
            splits.add(new KafkaSplit(table, qualifiedName, (int) piece[0], piece[1], piece[2], malformedRecords));
        }
        return splits;
    }

    Map<TopicPartition, Long> startOffsets(KafkaTableDefinition table, List<TopicPartition> partitions, Map<TopicPartition, Long> ends)
    {
        String topic = table.topic();
        Map<TopicPartition, Long> starts = new HashMap<>();
        switch (table.startupMode()) {
            case LATEST_OFFSET -> starts.putAll(ends);
            case EARLIEST_OFFSET -> starts.putAll(admin.offsets(topic, partitions, OffsetSpec.earliest()));
            case GROUP_OFFSETS -> {
                Map<TopicPartition, Long> earliest = admin.offsets(topic, partitions, OffsetSpec.earliest());
                Map<TopicPartition, Long> committed = admin.committedOffsets(topic, table.groupId().orElseThrow(), partitions);
                for (TopicPartition partition : partitions) {
                    starts.put(partition, Math.max(earliest.get(partition), committed.getOrDefault(partition, earliest.get(partition))));
                }
            }
            case TIMESTAMP -> {
                Map<TopicPartition, Long> byTimestamp = admin.offsets(topic, partitions, OffsetSpec.forTimestamp(table.startupTimestampMillis().orElseThrow()));
                for (TopicPartition partition : partitions) {
                    long offset = byTimestamp.getOrDefault(partition, -1L);
                    starts.put(partition, offset < 0 ? ends.get(partition) : offset);
                }
            }
        }
        for (TopicPartition partition : partitions) {
            starts.put(partition, Math.min(starts.get(partition), ends.get(partition)));
        }
        return starts;
    }

    /** Whether a row whose column holds {@code value} may pass the pushed filters on that column. */
    private static boolean mayHold(ScanSpec scan, String column, long value)
    {
        for (ColumnPredicate predicate : scan.predicates()) {
            if (predicate.column().equals(column) && !matches(predicate, value)) {
                return false;
            }
        }
        for (List<ColumnPredicate> disjunction : scan.disjunctions()) {
            if (disjunction.isEmpty() || !disjunction.stream().allMatch(predicate -> predicate.column().equals(column))) {
                continue;
            }
            if (disjunction.stream().noneMatch(predicate -> matches(predicate, value))) {
                return false;
            }
        }
        return true;
    }

    private static boolean matches(ColumnPredicate predicate, long value)
    {
        List<Object> values = predicate.values();
        switch (predicate.operator()) {
            case IS_NULL:
                return false;
            case IN:
                return values.stream().anyMatch(candidate -> !(candidate instanceof Long) || (Long) candidate == value);
            case EQUAL:
            case NOT_EQUAL:
            case LESS_THAN:
            case LESS_THAN_OR_EQUAL:
            case GREATER_THAN:
            case GREATER_THAN_OR_EQUAL:
                if (!(values.get(0) instanceof Long bound)) {
                    return true;
                }
                return switch (predicate.operator()) {
                    case EQUAL -> value == bound;
                    case NOT_EQUAL -> value != bound;
                    case LESS_THAN -> value < bound;
                    case LESS_THAN_OR_EQUAL -> value <= bound;
                    case GREATER_THAN -> value > bound;
                    default -> value >= bound;
                };
            default:
                return true;
        }
    }

    /** [first, end) offsets that filters on {@code _offset} allow. */
    private static long[] offsetRange(ScanSpec scan)
    {
        long first = 0;
        long end = Long.MAX_VALUE;
        for (ColumnPredicate predicate : scan.predicates()) {
            if (!predicate.column().equals(KafkaHiddenColumns.OFFSET)) {
                continue;
            }
            List<Object> values = predicate.values();
            if (predicate.operator() == ColumnPredicate.Operator.IN) {
                if (!values.isEmpty() && values.stream().allMatch(Long.class::isInstance)) {
                    first = Math.max(first, values.stream().mapToLong(Long.class::cast).min().orElseThrow());
                    end = Math.min(end, saturatedIncrement(values.stream().mapToLong(Long.class::cast).max().orElseThrow()));
                }
                continue;
            }
            if (values.isEmpty() || !(values.get(0) instanceof Long bound)) {
                continue;
            }
            switch (predicate.operator()) {
                case EQUAL -> {
                    first = Math.max(first, bound);
                    end = Math.min(end, saturatedIncrement(bound));
                }
                case GREATER_THAN -> first = Math.max(first, saturatedIncrement(bound));
                case GREATER_THAN_OR_EQUAL -> first = Math.max(first, bound);
                case LESS_THAN -> end = Math.min(end, bound);
                case LESS_THAN_OR_EQUAL -> end = Math.min(end, saturatedIncrement(bound));
                default -> {
                }
            }
        }
        return new long[] {first, end};
    }

    /** The smallest record timestamp (epoch milliseconds) that filters on {@code _timestamp} allow. */
    private static OptionalLong minimumTimestamp(ScanSpec scan)
    {
        OptionalLong minimum = OptionalLong.empty();
        for (ColumnPredicate predicate : scan.predicates()) {
            if (!predicate.column().equals(KafkaHiddenColumns.TIMESTAMP)) {
                continue;
            }
            List<Object> values = predicate.values();
            OptionalLong bound = OptionalLong.empty();
            switch (predicate.operator()) {
                case EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
                    if (values.get(0) instanceof LocalDateTime value) {
                        // a record at exactly the bound fails GREATER_THAN; the engine drops it again
                        bound = OptionalLong.of(epochMillis(value));
                    }
                }
                case IN -> {
                    if (!values.isEmpty() && values.stream().allMatch(LocalDateTime.class::isInstance)) {
                        bound = OptionalLong.of(values.stream().mapToLong(value -> epochMillis((LocalDateTime) value)).min().orElseThrow());
                    }
                }
                default -> {
                }
            }
            if (bound.isPresent() && bound.getAsLong() > 0 && (minimum.isEmpty() || bound.getAsLong() > minimum.getAsLong())) {
                minimum = bound;
            }
        }
        return minimum;
    }

    private static long epochMillis(LocalDateTime value)
    {
        // rounds down: a bound inside a millisecond must keep the record of that millisecond
        return value.toEpochSecond(ZoneOffset.UTC) * 1000 + value.getNano() / 1_000_000;
    }

    private static long saturatedIncrement(long value)
    {
        return value == Long.MAX_VALUE ? value : value + 1;
    }
}
