package io.ontul.catalog.jdbc.query;

import static java.util.Objects.requireNonNull;

import io.ontul.catalog.jdbc.type.ValueBinder;

/** A value bound to a {@code ?} of a generated statement, with the binder of its column. */
public record QueryParameter(Object value, ValueBinder binder)
{
    public QueryParameter
    {
        requireNonNull(value, "value is null");
        requireNonNull(binder, "binder is null");
    }
}
