package io.ontul.engine.operator.sort;

/** One ORDER BY key: a column, its direction, and where NULLs go. */
public record SortKey(int column, boolean descending, boolean nullsFirst) {}
