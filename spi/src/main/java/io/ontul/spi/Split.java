package io.ontul.spi;

/**
 * A piece of a table scan that one thread reads. Connectors implement it with their own
 * immutable record; the engine only passes it back to {@link Connector#createSource}.
 */
public interface Split
{
    /** Short text shown in EXPLAIN ANALYZE and logs. */
    default String describe()
    {
        return toString();
    }
}
