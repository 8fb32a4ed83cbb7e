package io.ontul.spi;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What a scan needs: the columns to produce (in order) and the predicates the engine pushed
 * down. Predicates are hints: a source may drop rows that fail them (by skipping files, row
 * groups or batches), and need not drop any, because the engine evaluates the full filter again.
 * A source must never drop a row that satisfies all of them.
 */
public record ScanSpec(List<String> columns, List<ColumnPredicate> predicates)
{
    public ScanSpec
    {
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        predicates = List.copyOf(requireNonNull(predicates, "predicates is null"));
    }
}
