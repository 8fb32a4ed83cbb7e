package io.ontul.bench;

import java.util.List;

import org.duckdb.DuckDBConnection;

/**
 * The two engines one {@link TpchBenchmark} run compares, and how the run reaches them. The run
 * opens them once DuckDB holds the data, creates Ontul's tables through {@link #load}, then
 * times the queries on {@link #ontul()} and {@link #duckDb()} alternately, from one thread at a
 * time; {@link #close()} ends both engines.
 */
public interface TpchContenders
        extends AutoCloseable
{
    /** Runs one {@code CREATE TABLE ... AS SELECT} that loads Ontul; returns its row count. */
    long load(String sql)
            throws Exception;

    BenchmarkEngine ontul();

    BenchmarkEngine duckDb();

    /** Lines for the report: the peer's version, how each engine is reached. */
    List<String> facts()
            throws Exception;

    @Override
    void close()
            throws Exception;

    /** Opens the contenders over a DuckDB connection that already holds the TPC-H tables. */
    interface Factory
    {
        TpchContenders open(DuckDBConnection duckDb)
                throws Exception;
    }
}
