package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.QueryStatus;
import io.ontul.engine.api.Session;
import io.ontul.exchange.spill.SpillStore;
import io.ontul.spi.DataSize;

/**
 * Ontul embedded in this JVM with its own session on {@code memory.default}. Spilled bytes are
 * the growth of the engine's {@link SpillStore#writtenBytes()} over the run; the peak memory is
 * what {@code system.runtime.queries.peak_memory_bytes} shows for the query.
 */
public final class OntulSpillContender
        implements SpillContender
{
    /** The memory limit when none is wanted: more than any query here holds. */
    static final String NO_LIMIT = "16GB";
    private static final Pattern OPERATOR_MEMORY = Pattern.compile("memory=(\\d+(?:kB|MB|GB|TB|B))");

    private final String name;
    private final Engine engine;
    private final Session session;
    private final AtomicReference<QueryResult> running = new AtomicReference<>();

    public OntulSpillContender(String name, Engine engine)
    {
        this.name = requireNonNull(name, "name is null");
        this.engine = requireNonNull(engine, "engine is null");
        this.session = engine.createSession("bench");
        session.setCatalog("memory");
        session.setSchema("default");
        execute("SET SESSION query_max_memory = '" + NO_LIMIT + "'");
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public void limitMemory(OptionalLong bytes)
    {
        execute("SET SESSION query_max_memory = '" + (bytes.isPresent() ? bytes.getAsLong() + "B" : NO_LIMIT) + "'");
    }

    /** Runs a statement to its end and returns the first value of its first row, or -1. */
    public long execute(String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            long value = -1;
            VectorSchemaRoot batch;
            while ((batch = result.nextBatch()) != null) {
                if (value < 0 && batch.getRowCount() > 0 && !batch.getFieldVectors().isEmpty()
                        && batch.getFieldVectors().get(0).getObject(0) instanceof Number number) {
                    value = number.longValue();
                }
            }
            return value;
        }
    }

    /**
     * Runs the query under EXPLAIN ANALYZE: the plan with each operator's figures, the query's
     * peak memory, and the sum of the operators' {@code memory=} figures. The two memory figures
     * differ where an operator holds batches it did not allocate (rows of a memory table), which
     * the query's allocator does not see.
     */
    public AnalyzedQuery analyze(String sql)
    {
        StringBuilder text = new StringBuilder();
        String queryId;
        try (QueryResult result = session.execute("EXPLAIN ANALYZE " + sql)) {
            queryId = result.queryId();
            VectorSchemaRoot batch;
            while ((batch = result.nextBatch()) != null) {
                for (int row = 0; row < batch.getRowCount(); row++) {
                    text.append(batch.getVector(0).getObject(row)).append('\n');
                }
            }
        }
        long peak = engine.queryStatus(queryId).map(QueryStatus::peakMemoryBytes).orElse(-1L);
        long operators = 0;
        Matcher matcher = OPERATOR_MEMORY.matcher(text);
        while (matcher.find()) {
            operators += DataSize.parse(matcher.group(1), "memory");
        }
        return new AnalyzedQuery(text.toString(), peak, operators);
    }

    /** What {@link #analyze} found. */
    public record AnalyzedQuery(String plan, long peakMemoryBytes, long operatorMemoryBytes) {}

    @Override
    public SpillRunResult run(String sql)
    {
        SpillStore spill = engine.spillStore();
        long spilledBefore = spill.writtenBytes();
        long start = System.nanoTime();
        long rows = 0;
        String queryId;
        try (QueryResult result = session.execute(sql)) {
            running.set(result);
            queryId = result.queryId();
            VectorSchemaRoot batch;
            while ((batch = result.nextBatch()) != null) {
                rows += batch.getRowCount();
            }
        }
        finally {
            running.set(null);
        }
        long nanos = System.nanoTime() - start;
        long peak = engine.queryStatus(queryId).map(QueryStatus::peakMemoryBytes).orElse(-1L);
        return new SpillRunResult(nanos, rows, spill.writtenBytes() - spilledBefore, peak);
    }

    @Override
    public void cancel()
    {
        QueryResult result = running.get();
        if (result != null) {
            result.cancel();
        }
    }
}
