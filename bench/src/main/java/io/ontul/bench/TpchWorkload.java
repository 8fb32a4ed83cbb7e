package io.ontul.bench;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.duckdb.DuckDBConnection;

import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.TpchQueries;
import io.trino.tpch.TpchTable;

/** The 22 TPC-H queries over {@code memory.default} in both engines. */
public final class TpchWorkload
        implements Workload
{
    private static final String CATALOG = "memory";
    private static final String SCHEMA = "default";
    private static final String TABLE_PREFIX = CATALOG + "." + SCHEMA + ".";

    @Override
    public String title()
    {
        return "TPC-H";
    }

    @Override
    public Map<String, String> queries()
    {
        Map<String, String> queries = new LinkedHashMap<>();
        TpchQueries.load().forEach((name, sql) -> queries.put(name, TpchQueries.withTablePrefix(sql, TABLE_PREFIX)));
        return queries;
    }

    @Override
    public void loadDuckDb(DuckDBConnection connection, BenchmarkOptions options)
            throws SQLException
    {
        DuckDbTpch.load(connection, CATALOG, SCHEMA, options.scale(), Runtime.getRuntime().availableProcessors());
    }

    @Override
    public List<String> ontulLoad(BenchmarkOptions options)
    {
        return TpchTable.getTables().stream()
                .map(table -> String.format("CREATE TABLE %s%s AS SELECT * FROM tpch.%s.%s", TABLE_PREFIX, table.getTableName(), options.scaleName(), table.getTableName()))
                .toList();
    }

    @Override
    public String ontulLoadDescription(BenchmarkOptions options)
    {
        return String.format("CREATE TABLE %s* AS SELECT * FROM tpch.%s.*", TABLE_PREFIX, options.scaleName());
    }
}
