package io.ontul.server.cli;

import java.io.IOException;

import io.ontul.engine.api.QueryResult;

/**
 * Writes the results of statements to a text stream in one output format.
 * <p>
 * Protocol: the command calls {@link #format} once per statement, in statement order, on one
 * thread. The formatter reads {@link QueryResult#schema()}, then calls
 * {@link QueryResult#nextBatch()} until it returns null, writing as it goes; it never keeps a
 * batch after the next call to {@code nextBatch}. It does not close the result: the caller does.
 * Before returning it flushes everything it wrote. Formats that need no column widths flush after
 * every batch, so rows appear while the query still runs. An exception from {@code nextBatch}
 * propagates unchanged; what was written before it stays written, but may not be flushed.
 */
public interface ResultFormatter
{
    void format(QueryResult result)
            throws IOException;

    /** Writes out anything buffered, e.g. before an error message goes to another stream. */
    void flush()
            throws IOException;
}
