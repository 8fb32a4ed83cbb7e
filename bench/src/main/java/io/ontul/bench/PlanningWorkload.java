package io.ontul.bench;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.duckdb.DuckDBConnection;

import io.ontul.engine.testing.ManyTableJoins;

/**
 * Planning time: {@code EXPLAIN} of the 22 TPC-H queries and of joins of 8, 12, 16, 20, 32 and 64 tables
 * ({@link ManyTableJoins}: a chain of key lookups in random order, as public SQL conformance
 * suites write them), timed on both engines. EXPLAIN parses, validates, optimizes and plans the
 * query without running it, on Ontul and DuckDB alike. The TPC-H tables are loaded as for
 * {@link TpchWorkload} (plans depend on their statistics), the join tables next to them.
 */
public final class PlanningWorkload
        implements Workload
{
    private static final String PREFIX = "memory.default.";
    private static final long SEED = 64;
    private static final int[] JOINS = {8, 12, 16, 20, 32, 64};

    private final TpchWorkload tpch = new TpchWorkload();

    @Override
    public String title()
    {
        return "Planning (EXPLAIN): TPC-H and joins of many tables";
    }

    @Override
    public Map<String, String> queries()
    {
        Map<String, String> queries = new LinkedHashMap<>();
        tpch.queries().forEach((name, sql) -> queries.put(name, "EXPLAIN " + sql));
        for (int tables : JOINS) {
            queries.put("join" + tables, "EXPLAIN " + ManyTableJoins.chain(PREFIX, tables, new Random(tables), ""));
        }
        return queries;
    }

    /** The engines' EXPLAIN texts differ by nature. */
    @Override
    public boolean resultsComparable()
    {
        return false;
    }

    @Override
    public void loadDuckDb(DuckDBConnection connection, BenchmarkOptions options)
            throws SQLException
    {
        tpch.loadDuckDb(connection, options);
        try (Statement statement = connection.createStatement()) {
            for (String sql : ManyTableJoins.tableStatements(PREFIX, SEED)) {
                statement.execute(sql);
            }
        }
    }

    @Override
    public List<String> ontulLoad(BenchmarkOptions options)
    {
        List<String> statements = new ArrayList<>(tpch.ontulLoad(options));
        statements.addAll(ManyTableJoins.tableStatements(PREFIX, SEED));
        return statements;
    }

    @Override
    public String ontulLoadDescription(BenchmarkOptions options)
    {
        return tpch.ontulLoadDescription(options) + "; the " + ManyTableJoins.TABLES + " join tables t1 ... t" + ManyTableJoins.TABLES
                + " of " + ManyTableJoins.ROWS + " rows each by CREATE TABLE and INSERT";
    }
}
