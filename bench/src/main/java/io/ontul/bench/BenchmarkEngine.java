package io.ontul.bench;

import java.util.List;

/**
 * One engine under benchmark, already loaded with the data. Queries run one at a time, each on
 * some thread of the benchmark; {@link #cancel()} may come from another thread while one runs.
 */
public interface BenchmarkEngine
        extends AutoCloseable
{
    String name();

    /** Runs the query, reads every row of its result and returns how many there were. */
    long countRows(String sql)
            throws Exception;

    /** Runs the query and returns its rows as plain Java values (see ResultRows). */
    QueryRows rows(String sql)
            throws Exception;

    /** Cancels the running query, if any, so that it fails soon; safe to call from any thread. */
    void cancel();

    @Override
    void close()
            throws Exception;

    /** A whole result: the column names and the rows. */
    record QueryRows(List<String> columnNames, List<List<Object>> rows)
    {
        public QueryRows
        {
            columnNames = List.copyOf(columnNames);
            rows = List.copyOf(rows);
        }
    }
}
