package io.ontul.catalog.jdbc.query;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * The rows of one split: {@code lower <= column < upper}, either bound absent meaning unbounded,
 * plus the rows where the column is NULL if {@code includeNulls}. The splits of a table cover
 * every row exactly once.
 */
public record SplitRange(String column, Optional<Object> lower, Optional<Object> upper, boolean includeNulls)
{
    public SplitRange
    {
        requireNonNull(column, "column is null");
        requireNonNull(lower, "lower is null");
        requireNonNull(upper, "upper is null");
    }

    public String describe()
    {
        StringBuilder text = new StringBuilder();
        lower.ifPresent(value -> text.append(column).append(" >= ").append(value));
        upper.ifPresent(value -> text.append(text.isEmpty() ? "" : " and ").append(column).append(" < ").append(value));
        if (includeNulls) {
            text.append(text.isEmpty() ? "" : " or ").append(column).append(" is null");
        }
        return text.isEmpty() ? "all rows" : text.toString();
    }
}
