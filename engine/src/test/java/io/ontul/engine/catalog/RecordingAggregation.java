package io.ontul.engine.catalog;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.spi.AggregateFunction;
import io.ontul.spi.Aggregation;
import io.ontul.spi.ColumnPredicate;
import io.ontul.spi.ScanSpec;

/**
 * The aggregation of {@link RecordingConnectorFactory}'s table computed the plain way: rows
 * {@code n = i + 1, twice = 2 * (i + 1), _row = i}, filtered by the scan's predicates (all on
 * BIGINT columns, none NULL), grouped, aggregated as the SPI describes.
 */
final class RecordingAggregation
{
    private RecordingAggregation() {}

    static VectorSchemaRoot compute(Schema table, int rowCount, ScanSpec scan, BufferAllocator allocator)
    {
        Aggregation aggregation = scan.aggregation().orElseThrow();
        Map<List<Long>, List<Map<String, Long>>> groups = new LinkedHashMap<>();
        if (aggregation.groupingColumns().isEmpty()) {
            groups.put(List.of(), new ArrayList<>());
        }
        for (int i = 0; i < rowCount; i++) {
            Map<String, Long> row = Map.of("n", i + 1L, "twice", 2L * (i + 1), "_row", (long) i);
            if (!scan.predicates().stream().allMatch(predicate -> matches(predicate, row))
                    || !scan.disjunctions().stream().allMatch(any -> any.stream().anyMatch(predicate -> matches(predicate, row)))) {
                continue;
            }
            List<Long> key = aggregation.groupingColumns().stream().map(row::get).toList();
            groups.computeIfAbsent(key, ignored -> new ArrayList<>()).add(row);
        }
        VectorSchemaRoot root = VectorSchemaRoot.create(aggregation.outputSchema(table), allocator);
        root.allocateNew();
        int group = 0;
        for (Map.Entry<List<Long>, List<Map<String, Long>>> entry : groups.entrySet()) {
            List<FieldVector> vectors = root.getFieldVectors();
            for (int key = 0; key < entry.getKey().size(); key++) {
                ((BigIntVector) vectors.get(key)).setSafe(group, entry.getKey().get(key));
            }
            for (int i = 0; i < aggregation.aggregates().size(); i++) {
                write(aggregation.aggregates().get(i), entry.getValue(), vectors.get(entry.getKey().size() + i), group);
            }
            group++;
        }
        root.setRowCount(group);
        return root;
    }

    private static void write(AggregateFunction function, List<Map<String, Long>> rows, FieldVector out, int index)
    {
        List<Long> values = function.column().map(column -> rows.stream().map(row -> row.get(column)).toList()).orElse(List.of());
        switch (function.kind()) {
            case COUNT_ALL -> ((BigIntVector) out).setSafe(index, rows.size());
            case COUNT -> ((BigIntVector) out).setSafe(index, values.size());
            default -> {
                if (values.isEmpty()) {
                    out.setNull(index);
                    return;
                }
                long sum = values.stream().mapToLong(Long::longValue).reduce(0, Math::addExact);
                switch (function.kind()) {
                    case SUM -> ((BigIntVector) out).setSafe(index, sum);
                    case MIN -> ((BigIntVector) out).setSafe(index, values.stream().mapToLong(Long::longValue).min().orElseThrow());
                    case MAX -> ((BigIntVector) out).setSafe(index, values.stream().mapToLong(Long::longValue).max().orElseThrow());
                    default -> ((Float8Vector) out).setSafe(index, BigDecimal.valueOf(sum).divide(BigDecimal.valueOf(values.size()), MathContext.DECIMAL64).doubleValue());
                }
            }
        }
    }

    private static boolean matches(ColumnPredicate predicate, Map<String, Long> row)
    {
        long value = row.get(predicate.column());
        List<Long> operands = predicate.values().stream().map(Long.class::cast).toList();
        return switch (predicate.operator()) {
            case EQUAL -> value == operands.get(0);
            case NOT_EQUAL -> value != operands.get(0);
            case LESS_THAN -> value < operands.get(0);
            case LESS_THAN_OR_EQUAL -> value <= operands.get(0);
            case GREATER_THAN -> value > operands.get(0);
            case GREATER_THAN_OR_EQUAL -> value >= operands.get(0);
            case IN -> operands.contains(value);
            case IS_NULL -> false;
            case IS_NOT_NULL -> true;
            case LIKE -> throw new IllegalArgumentException("LIKE on BIGINT column " + predicate.column());
        };
    }
}
