package io.ontul.spi;

/**
 * The four kinds of failure a user can see. Edges translate them: the Flight server to a
 * {@code CallStatus}, the JDBC driver to an SQLState class.
 */
public enum ErrorCategory
{
    /** Bad SQL, unknown object, bad option or value: the user can fix it. */
    USER_ERROR,
    /** Memory budget or spill space exhausted: retry with a smaller input or a larger budget. */
    INSUFFICIENT_RESOURCES,
    /** A system Ontul talks to (Kafka, PostgreSQL, an object store) failed. */
    EXTERNAL,
    /** A bug in Ontul. */
    INTERNAL
}
