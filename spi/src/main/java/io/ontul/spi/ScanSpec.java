package io.ontul.spi;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a scan needs: the columns to produce (in order) and the filters the engine pushed down.
 * <p>
 * The filter is the conjunction of {@code predicates} and of {@code disjunctions}, each of which
 * is true when any of its predicates is (an OR across columns). Filters are hints: a source may
 * drop rows that fail them (by skipping files, row groups or batches, or by sending them to the
 * database it reads), and need not drop any, because the engine evaluates the full filter again.
 * A source must never drop a row that satisfies all of them.
 * <p>
 * {@code limit}, when present, says the query needs only that many rows passing the filter; the
 * engine sets it only when the pushed filters are the whole filter of the scan. A source that
 * applies every pushed filter exactly may stop after {@code limit} rows (across all its splits,
 * or per split); one that does not must ignore it. The engine applies the limit again.
 * <p>
 * {@code aggregation}, when present, changes what the scan returns: the source computes the
 * {@link Aggregation} over the rows that pass the filters and returns one row per group (see
 * {@link Aggregation#outputSchema}) instead of {@code columns}, which then lists the grouping
 * columns followed by the other columns the aggregates read, for information. Here the filters
 * are no hints: the engine sends an aggregation only after {@link Connector#supportsAggregation}
 * accepted this very scan, and it does not filter or aggregate the rows again. {@code limit} is
 * then empty.
 * <p>
 * {@code maxBatchRows} is the most rows the engine wants in one batch: {@link #ANY_BATCH_ROWS}
 * leaves the size to the source; a smaller number comes when the query's memory is small, where
 * batches in flight between a scan and the operators that spill would otherwise take the memory
 * those need. A source should return batches of at most its own size and this many rows; one
 * that cannot choose its batch size may ignore it.
 */
public record ScanSpec(List<String> columns, List<ColumnPredicate> predicates, List<List<ColumnPredicate>> disjunctions, OptionalLong limit,
        Optional<Aggregation> aggregation, int maxBatchRows)
{
    /** {@link #maxBatchRows} when the engine leaves the batch size to the source. */
    public static final int ANY_BATCH_ROWS = Integer.MAX_VALUE;

    public ScanSpec
    {
        if (maxBatchRows < 1) {
            throw new IllegalArgumentException("maxBatchRows must be positive: " + maxBatchRows);
        }
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        predicates = List.copyOf(requireNonNull(predicates, "predicates is null"));
        disjunctions = requireNonNull(disjunctions, "disjunctions is null").stream().map(List::copyOf).toList();
        requireNonNull(limit, "limit is null");
        requireNonNull(aggregation, "aggregation is null");
        if (aggregation.isPresent() && limit.isPresent()) {
            throw new IllegalArgumentException("a scan with an aggregation has no limit");
        }
    }

    public ScanSpec(List<String> columns, List<ColumnPredicate> predicates, List<List<ColumnPredicate>> disjunctions, OptionalLong limit,
            Optional<Aggregation> aggregation)
    {
        this(columns, predicates, disjunctions, limit, aggregation, ANY_BATCH_ROWS);
    }

    public ScanSpec(List<String> columns, List<ColumnPredicate> predicates, List<List<ColumnPredicate>> disjunctions, OptionalLong limit)
    {
        this(columns, predicates, disjunctions, limit, Optional.empty());
    }

    public ScanSpec(List<String> columns, List<ColumnPredicate> predicates)
    {
        this(columns, predicates, List.of(), OptionalLong.empty());
    }

    /** This scan with batches of at most {@code rows} rows. */
    public ScanSpec withMaxBatchRows(int rows)
    {
        return new ScanSpec(columns, predicates, disjunctions, limit, aggregation, rows);
    }
}
