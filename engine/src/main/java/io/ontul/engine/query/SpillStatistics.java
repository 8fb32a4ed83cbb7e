package io.ontul.engine.query;

/**
 * What a query (or operator) wrote to spill files: bytes on disk (compressed and encrypted),
 * files (one per spill run) and rows.
 */
public record SpillStatistics(long bytes, long files, long rows)
{
    public static final SpillStatistics NONE = new SpillStatistics(0, 0, 0);
}
