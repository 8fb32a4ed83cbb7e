package io.ontul.bench;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import org.duckdb.DuckDBConnection;

/**
 * What a {@link TpchBenchmark} run measures: the queries, how DuckDB is loaded with the generated
 * rows, and the statements that give Ontul the same rows in memory. {@link TpchWorkload} and
 * {@link TpcdsWorkload}.
 */
public interface Workload
{
    /** The benchmark's name for the report heading: TPC-H, TPC-DS. */
    String title();

    /** Every query by name, in order, as Ontul runs it. */
    Map<String, String> queries();

    /** The query as DuckDB runs it (the same text, but for dialect differences). */
    default String forDuckDb(String name, String sql)
    {
        return sql;
    }

    /** Generates the data at {@code scale} and loads it into DuckDB where {@link #queries()} read it. */
    void loadDuckDb(DuckDBConnection connection, BenchmarkOptions options)
            throws SQLException;

    /** Statements that load Ontul (CREATE TABLE ... AS SELECT from the built-in catalog), run in order in the benchmark's session. */
    List<String> ontulLoad(BenchmarkOptions options);

    /**
     * Whether the two engines' results are the same rows (so differing row counts are worth a
     * note and {@code --check} compares them); not so for EXPLAIN texts.
     */
    default boolean resultsComparable()
    {
        return true;
    }

    /** How {@link #ontulLoad} loads Ontul, for the report. */
    String ontulLoadDescription(BenchmarkOptions options);
}
