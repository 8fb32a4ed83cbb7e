package io.ontul.engine.stream.plan;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.window.SessionWindowFunction;
import io.ontul.engine.plan.AggregateNode;
import io.ontul.engine.plan.PlanNode;
import io.ontul.engine.plan.ScanNode;
import io.ontul.spi.TableHandle;
import io.ontul.spi.stream.StreamSinkProvider;
import io.ontul.spi.stream.StreamSourceProvider;
import io.ontul.spi.stream.WatermarkDeclaration;

/**
 * A job planned by the query planner. Polled batches enter at {@code feed} and come out of
 * {@code input} (the query's filter/project and window table function nodes over the feed, or
 * the feed itself). A stateless job writes them to the sink; a windowed job feeds them to its
 * {@link WindowAggregationPlan window aggregations}, innermost first: the fired windows of each
 * run through its output nodes into the next, and those of the last into the sink.
 *
 * @param scan the source table's scan as the query planner chose it: its columns are what the source reads
 */
public record StreamingJobPlan(
        ScanNode scan,
        StreamFeedNode feed,
        PlanNode input,
        Optional<SessionStage> session,
        List<WindowAggregationPlan> aggregations,
        StreamSourceProvider source,
        Optional<WatermarkDeclaration> watermark,
        TableHandle sinkTable,
        StreamSinkProvider sink,
        Optional<RejectsTable> rejects)
{
    public StreamingJobPlan(ScanNode scan, StreamFeedNode feed, PlanNode input, Optional<SessionStage> session, List<WindowAggregationPlan> aggregations,
            StreamSourceProvider source, Optional<WatermarkDeclaration> watermark, TableHandle sinkTable, StreamSinkProvider sink)
    {
        this(scan, feed, input, session, aggregations, source, watermark, sinkTable, sink, Optional.empty());
    }

    /** Where undecodable records go (option 'rejects.table'), written exactly once with the checkpoints like the sink. */
    public record RejectsTable(TableHandle table, StreamSinkProvider sink)
    {
        public RejectsTable
        {
            requireNonNull(table, "table is null");
            requireNonNull(sink, "sink is null");
        }
    }

    public StreamingJobPlan withRejects(RejectsTable table)
    {
        return new StreamingJobPlan(scan, feed, input, session, aggregations, source, watermark, sinkTable, sink, Optional.of(table));
    }

    public StreamingJobPlan
    {
        requireNonNull(scan, "scan is null");
        requireNonNull(feed, "feed is null");
        requireNonNull(input, "input is null");
        requireNonNull(session, "session is null");
        aggregations = List.copyOf(aggregations);
        requireNonNull(source, "source is null");
        requireNonNull(watermark, "watermark is null");
        requireNonNull(sinkTable, "sinkTable is null");
        requireNonNull(sink, "sink is null");
        requireNonNull(rejects, "rejects is null");
    }

    /**
     * The SESSION window of a job: the rows {@code input} emits wait in the job's
     * {@link io.ontul.engine.stream.window.EventTimeSessions} until their session ends, then enter at
     * {@code feed} with window_start and window_end and come out of {@code output} (the nodes
     * between the window and the aggregation, or the feed itself) into the aggregation.
     *
     * @param input the node whose rows the sessions take (the job's input)
     * @param outputSchema the window function's columns: the input's plus window_start, window_end
     * @param microsPerUnit microseconds per unit of the time column
     */
    public record SessionStage(SessionWindowFunction function, PlanNode input, Schema outputSchema, long microsPerUnit, StreamFeedNode feed, PlanNode output)
    {
        public SessionStage
        {
            requireNonNull(function, "function is null");
            requireNonNull(input, "input is null");
            requireNonNull(outputSchema, "outputSchema is null");
            requireNonNull(feed, "feed is null");
            requireNonNull(output, "output is null");
        }

        public SessionStage withOutput(PlanNode newOutput)
        {
            return new SessionStage(function, input, outputSchema, microsPerUnit, feed, newOutput);
        }
    }

    /**
     * The GROUP BY of a windowed job.
     *
     * @param aggregate the aggregation as a batch query plans it (its child is the job's input)
     * @param windowEndKey which of its keys is window_end
     * @param microsPerUnit microseconds per unit of window_end
     * @param resultFeed where fired windows enter the output nodes
     * @param output the nodes above the aggregation over {@code resultFeed}, or the feed itself
     */
    public record WindowAggregationPlan(AggregateNode aggregate, int windowEndKey, long microsPerUnit, StreamFeedNode resultFeed, PlanNode output)
    {
        public WindowAggregationPlan
        {
            requireNonNull(aggregate, "aggregate is null");
            requireNonNull(resultFeed, "resultFeed is null");
            requireNonNull(output, "output is null");
        }
    }

    /** The key a windowed job's rows are hashed by into key groups, in every place they and their state appear. */
    public ShuffleKey shuffleKey()
    {
        return ShuffleKey.of(this);
    }

    /**
     * Refuses a parallelism the plan cannot run with: a windowed job needs a {@link ShuffleKey}
     * that keeps each group of each of its stages on one task.
     */
    public void checkParallelism(int parallelism)
    {
        if (parallelism > 1 && !aggregations.isEmpty()) {
            Optional<String> unkeyable = shuffleKey().unkeyable();
            if (unkeyable.isPresent()) {
                throw new io.ontul.spi.OntulException(io.ontul.spi.ErrorCode.NOT_SUPPORTED, "Streaming job option 'parallelism' = " + parallelism + " is not supported for "
                        + unkeyable.get() + ": use 'parallelism' = '1'");
            }
        }
    }

    /**
     * Whether the source tasks aggregate each poll locally per window and key and send state rows
     * to the window tasks (a windowed job without a SESSION window, whose rows wait whole).
     */
    public boolean aggregatesLocally()
    {
        return session.isEmpty() && !aggregations.isEmpty();
    }

    /** The node that emits what the sink writes. */
    public PlanNode top()
    {
        return aggregations.isEmpty() ? input : aggregations.get(aggregations.size() - 1).output();
    }

    /** One line per node, top first, as EXPLAIN writes them. */
    public List<String> describe()
    {
        List<String> lines = new ArrayList<>();
        lines.add("- Sink " + sinkTable.qualifiedName() + " (two-phase commit per checkpoint)"
                + rejects.map(table -> "; undecodable records to " + table.table().qualifiedName()).orElse(""));
        int depth = 1;
        for (int i = aggregations.size() - 1; i >= 0; i--) {
            depth = describeUntilFeed(aggregations.get(i).output(), depth, lines);
            lines.add("  ".repeat(depth++) + "- Window" + aggregations.get(i).aggregate().describe() + " (fires when the watermark passes window_end)");
        }
        if (session.isPresent()) {
            depth = describeUntilFeed(session.get().output(), depth, lines);
            lines.add("  ".repeat(depth++) + "- SESSION gap=" + session.get().function().gap() + " (rows wait until the watermark passes their session's end)");
        }
        depth = describeUntilFeed(input, depth, lines);
        lines.add("  ".repeat(depth) + "- Stream " + scan.table().qualifiedName() + " columns=" + scan.scan().columns()
                + watermark.map(declared -> " watermark=" + declared.column() + " - " + declared.delay()
                        + declared.idleTimeout().map(idle -> " idle-timeout=" + idle).orElse("")).orElse(""));
        return lines;
    }

    private static int describeUntilFeed(PlanNode node, int depth, List<String> lines)
    {
        while (!(node instanceof StreamFeedNode)) {
            lines.add("  ".repeat(depth++) + "- " + node.describe() + " [vectorized]");
            node = node.children().get(0);
        }
        return depth;
    }
}
