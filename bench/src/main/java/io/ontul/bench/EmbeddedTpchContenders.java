package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.duckdb.DuckDBConnection;

import io.ontul.engine.api.Engine;

/** Ontul embedded in this JVM and called directly, DuckDB over its in-process JDBC driver. */
public final class EmbeddedTpchContenders
        implements TpchContenders
{
    private final OntulBenchmarkEngine ontul;
    private final DuckDbBenchmarkEngine duckDb;

    public EmbeddedTpchContenders(DuckDBConnection duckDb)
    {
        this.duckDb = new DuckDbBenchmarkEngine(requireNonNull(duckDb, "duckDb is null"));
        this.ontul = new OntulBenchmarkEngine(Engine.createEmbedded());
    }

    @Override
    public long load(String sql)
    {
        return ontul.update(sql);
    }

    @Override
    public BenchmarkEngine ontul()
    {
        return ontul;
    }

    @Override
    public BenchmarkEngine duckDb()
    {
        return duckDb;
    }

    @Override
    public List<String> facts()
            throws Exception
    {
        return List.of("Peer: " + duckDb.describe());
    }

    @Override
    public void close()
            throws Exception
    {
        try (duckDb) {
            ontul.close();
        }
    }
}
