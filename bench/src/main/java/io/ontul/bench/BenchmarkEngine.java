package io.ontul.bench;

import java.util.List;

/**
 * One engine under benchmark, already loaded with the data. Calls come from one thread, one
 * query at a time.
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
