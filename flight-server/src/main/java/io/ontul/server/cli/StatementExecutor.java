package io.ontul.server.cli;

import io.ontul.engine.api.QueryResult;

/**
 * Runs the statements of one command-line session. The command calls {@link #execute} once per
 * statement, in order, consuming and closing each result before the next call, then
 * {@link #close()} once. Failures surface as {@link io.ontul.spi.OntulException} from
 * {@code execute} or from the result.
 */
public interface StatementExecutor
        extends AutoCloseable
{
    QueryResult execute(String sql);

    @Override
    void close();
}
