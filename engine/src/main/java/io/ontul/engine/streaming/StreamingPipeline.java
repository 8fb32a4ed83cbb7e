package io.ontul.engine.streaming;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.execution.QueryContext;
import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.EventTimeWindowAggregation;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.plan.TaskContext;
import io.ontul.exchange.checkpoint.StateStreamReader;
import io.ontul.exchange.checkpoint.StateStreamWriter;
import io.ontul.exchange.checkpoint.TaskSnapshot;
import io.ontul.exchange.checkpoint.TaskSnapshotWriter;
import io.ontul.spi.stream.StreamBatch;

/**
 * The operators of one task of a streaming job, between its source reader and its sink. Polled
 * batches go through the query's filter/project (and window table function) operators; a
 * stateless job hands the result to the sink, a windowed job adds it to its
 * {@link EventTimeWindowAggregation} with the watermark before the batch, advances the watermark
 * with the batch's event times ({@link WatermarkTracker}) and hands the rows of every window the
 * watermark closed, through the operators above the aggregation, to the sink.
 * <p>
 * On a checkpoint barrier {@link #snapshot} adds the watermark state to the task's metadata and
 * the open windows as the state stream {@value #WINDOWS}; {@link #restore} takes them back.
 * Single-threaded, on the task's thread.
 */
final class StreamingPipeline
        implements AutoCloseable
{
    static final String WINDOWS = "windows";
    private static final String WATERMARK = "watermark";
    private static final String EVENT_TIME = "event-time.";

    private final StreamingJobPlan plan;
    private final Operator input;
    private final EventTimeWindowAggregation windows;
    private final WatermarkTracker watermarks;
    private final Operator output;

    StreamingPipeline(StreamingJobPlan plan, QueryContext context, Collection<String> splits, LongSupplier nanoClock)
    {
        this.plan = requireNonNull(plan, "plan is null");
        TaskContext task = TaskContext.single(context);
        this.input = plan.input().open(task);
        if (plan.aggregation().isPresent()) {
            StreamingJobPlan.WindowAggregationPlan aggregation = plan.aggregation().get();
            this.windows = aggregation.aggregate().createWindowAggregation(context, aggregation.windowEndKey(), aggregation.microsPerUnit());
            this.watermarks = new WatermarkTracker(plan.watermark().orElseThrow(), splits, nanoClock);
            this.output = aggregation.output().open(task);
        }
        else {
            this.windows = null;
            this.watermarks = null;
            this.output = null;
        }
    }

    /** Runs one poll's rows through the operators; what is ready for the sink goes to {@code sink}, which must not keep the batch. */
    void process(StreamBatch polled, Consumer<VectorSchemaRoot> sink)
    {
        if (windows == null) {
            if (polled.batch() != null) {
                plan.feed().offer(polled.batch());
                drain(input, sink);
            }
            return;
        }
        long before = watermarks.watermark();
        if (polled.batch() != null) {
            plan.feed().offer(polled.batch());
            drain(input, batch -> windows.add(batch, before));
        }
        List<VectorSchemaRoot> fired = windows.fire(watermarks.advance(polled.maxEventTimes()));
        StreamFeedNode resultFeed = plan.aggregation().orElseThrow().resultFeed();
        try {
            for (int i = 0; i < fired.size(); i++) {
                resultFeed.offer(fired.get(i));
                fired.set(i, null);
                drain(output, sink);
            }
        }
        finally {
            for (VectorSchemaRoot left : fired) {
                if (left != null) {
                    left.close();
                }
            }
        }
    }

    private static void drain(Operator operator, Consumer<VectorSchemaRoot> consumer)
    {
        for (VectorSchemaRoot batch = operator.next(); batch != null; batch = operator.next()) {
            try (VectorSchemaRoot owned = batch) {
                consumer.accept(owned);
            }
        }
    }

    /** Rows left out because their window had closed; 0 for a stateless job. */
    long lateRows()
    {
        return windows == null ? 0 : windows.lateRows();
    }

    /** The watermark in epoch microseconds, or {@link WatermarkTracker#NONE}. */
    long watermark()
    {
        return watermarks == null ? WatermarkTracker.NONE : watermarks.watermark();
    }

    /** Open window groups held; 0 for a stateless job. */
    int openGroups()
    {
        return windows == null ? 0 : windows.groupCount();
    }

    /** The task's state for a checkpoint: metadata entries (returned) and state streams (written to {@code writer}). */
    Map<String, String> snapshot(TaskSnapshotWriter writer)
    {
        Map<String, String> metadata = new HashMap<>();
        if (windows == null) {
            return metadata;
        }
        metadata.put(WATERMARK, String.valueOf(watermarks.watermark()));
        watermarks.maxEventTimes().forEach((split, time) -> metadata.put(EVENT_TIME + split, String.valueOf(time)));
        List<VectorSchemaRoot> state = windows.snapshot();
        try {
            StateStreamWriter stream = writer.stream(WINDOWS, windows.stateSchema());
            for (VectorSchemaRoot batch : state) {
                stream.write(batch);
            }
            stream.finish();
        }
        finally {
            Batches.closeAll(state);
        }
        return metadata;
    }

    /** Takes back the state a checkpoint holds for this task: its metadata and snapshot (null when the task has none). */
    void restore(Map<String, String> metadata, TaskSnapshot snapshot, QueryContext context)
    {
        if (windows == null || !metadata.containsKey(WATERMARK)) {
            return;
        }
        Map<String, Long> maxEventTimes = new HashMap<>();
        metadata.forEach((key, value) -> {
            if (key.startsWith(EVENT_TIME)) {
                maxEventTimes.put(key.substring(EVENT_TIME.length()), Long.parseLong(value));
            }
        });
        watermarks.restore(maxEventTimes, Long.parseLong(metadata.get(WATERMARK)));
        if (snapshot != null && snapshot.stream(WINDOWS).isPresent()) {
            try (StateStreamReader reader = snapshot.openStream(WINDOWS, context.allocator())) {
                for (VectorSchemaRoot batch = reader.next(); batch != null; batch = reader.next()) {
                    try (VectorSchemaRoot owned = batch) {
                        windows.restore(owned);
                    }
                }
            }
        }
    }

    @Override
    public void close()
    {
        try (Operator closingInput = input; Operator closingOutput = output; EventTimeWindowAggregation closingWindows = windows) {
            // closes all three, also when one fails
        }
    }
}
