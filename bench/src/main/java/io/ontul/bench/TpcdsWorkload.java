package io.ontul.bench;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.duckdb.DuckDBConnection;

import io.ontul.engine.testing.DuckDbTpcds;
import io.ontul.engine.testing.TpcdsQueries;
import io.trino.tpcds.Table;

/**
 * The 99 TPC-DS queries (103 texts) with unqualified table names: DuckDB holds the tables in its
 * default schema, Ontul's session uses {@code memory.default}. DuckDB parses the generator's text
 * itself ({@link DuckDbTpcds}).
 */
public final class TpcdsWorkload
        implements Workload
{
    @Override
    public String title()
    {
        return "TPC-DS";
    }

    @Override
    public Map<String, String> queries()
    {
        return TpcdsQueries.load();
    }

    @Override
    public String forDuckDb(String name, String sql)
    {
        return TpcdsQueries.forDuckDb(name, sql);
    }

    @Override
    public void loadDuckDb(DuckDBConnection connection, BenchmarkOptions options)
            throws SQLException
    {
        DuckDbTpcds.loadAll(connection, options.scale(), Runtime.getRuntime().availableProcessors());
    }

    @Override
    public List<String> ontulLoad(BenchmarkOptions options)
    {
        List<String> statements = new ArrayList<>();
        for (Table table : DuckDbTpcds.tables()) {
            statements.add(String.format("CREATE TABLE memory.default.%s AS SELECT * FROM tpcds.%s.%s", table.getName(), options.scaleName(), table.getName()));
        }
        statements.add("USE memory.default");
        return statements;
    }

    @Override
    public String ontulLoadDescription(BenchmarkOptions options)
    {
        return String.format("CREATE TABLE memory.default.* AS SELECT * FROM tpcds.%s.*", options.scaleName());
    }
}
