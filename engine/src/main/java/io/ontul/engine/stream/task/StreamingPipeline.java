package io.ontul.engine.stream.task;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.plan.TaskContext;
import io.ontul.engine.query.QueryContext;
import io.ontul.engine.stream.plan.StreamFeedNode;
import io.ontul.engine.stream.plan.StreamingJobPlan;
import io.ontul.engine.stream.window.EventTimeSessions;
import io.ontul.engine.stream.window.EventTimeWindowAggregation;
import io.ontul.engine.stream.window.WatermarkTracker;
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
public final class StreamingPipeline
        implements AutoCloseable
{
    static final String WINDOWS = "windows";
    static final String SESSIONS = "sessions";
    private static final String WATERMARK = "watermark";
    private static final String EVENT_TIME = "event-time.";

    private final StreamingJobPlan plan;
    private final Operator input;
    private final EventTimeSessions sessions;
    private final Operator sessionOutput;
    /** The window aggregations, innermost first, with the operators after each; empty for a stateless job. */
    private final List<EventTimeWindowAggregation> windows = new ArrayList<>();
    private final List<Operator> outputs = new ArrayList<>();
    private final WatermarkTracker watermarks;
    private long lastSnapshotBytes;

    public StreamingPipeline(StreamingJobPlan plan, QueryContext context, Collection<String> splits, LongSupplier nanoClock)
    {
        this.plan = requireNonNull(plan, "plan is null");
        TaskContext task = TaskContext.single(context);
        this.input = plan.input().open(task);
        if (plan.session().isPresent()) {
            StreamingJobPlan.SessionStage session = plan.session().get();
            this.sessions = new EventTimeSessions(context, session.function(), session.input().schema(), session.outputSchema(), session.microsPerUnit());
            this.sessionOutput = session.output().open(task);
        }
        else {
            this.sessions = null;
            this.sessionOutput = null;
        }
        for (StreamingJobPlan.WindowAggregationPlan aggregation : plan.aggregations()) {
            windows.add(EventTimeWindowAggregation.of(context, aggregation.aggregate().parts(), aggregation.windowEndKey(), aggregation.microsPerUnit()));
            outputs.add(aggregation.output().open(task));
        }
        this.watermarks = plan.aggregations().isEmpty() ? null : new WatermarkTracker(plan.watermark().orElseThrow(), splits, nanoClock);
    }

    /** Runs one poll's rows through the operators; what is ready for the sink goes to {@code sink}, which must not keep the batch. */
    public void process(StreamBatch polled, Consumer<VectorSchemaRoot> sink)
    {
        if (windows.isEmpty()) {
            if (polled.batch() != null) {
                plan.feed().offer(polled.batch());
                drain(input, sink);
            }
            return;
        }
        long before = watermarks.watermark();
        if (polled.batch() != null) {
            plan.feed().offer(polled.batch());
            drain(input, batch -> {
                if (sessions != null) {
                    sessions.add(batch, before);
                }
                else {
                    windows.get(0).add(batch, before);
                }
            });
        }
        long watermark = watermarks.advance(polled.maxEventTimes());
        if (sessions != null) {
            // a session's rows come out once it ended; they are never late for the aggregation
            feedThrough(sessions.close(watermark), plan.session().orElseThrow().feed(), sessionOutput, windows.get(0)::addOnTime);
        }
        // a window's rows go from one aggregation to the next at once: they are never late there
        for (int i = 0; i < windows.size(); i++) {
            Consumer<VectorSchemaRoot> next = i + 1 < windows.size() ? windows.get(i + 1)::addOnTime : sink;
            feedThrough(windows.get(i).fire(watermark), plan.aggregations().get(i).resultFeed(), outputs.get(i), next);
        }
    }

    /** Runs each batch, owned from now on, from {@code feed} through {@code operator} into {@code consumer}. */
    private static void feedThrough(List<VectorSchemaRoot> batches, StreamFeedNode feed, Operator operator, Consumer<VectorSchemaRoot> consumer)
    {
        List<VectorSchemaRoot> fired = new java.util.ArrayList<>(batches);
        try {
            for (int i = 0; i < fired.size(); i++) {
                feed.offer(fired.get(i));
                fired.set(i, null);
                drain(operator, consumer);
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
    public long lateRows()
    {
        return (windows.isEmpty() ? 0 : windows.get(0).lateRows()) + (sessions == null ? 0 : sessions.lateRows());
    }

    /** The watermark in epoch microseconds, or {@link WatermarkTracker#NONE}. */
    public long watermark()
    {
        return watermarks == null ? WatermarkTracker.NONE : watermarks.watermark();
    }

    /** Open window groups held; 0 for a stateless job. */
    public int openGroups()
    {
        return windows.stream().mapToInt(EventTimeWindowAggregation::groupCount).sum();
    }

    /** The task's state for a checkpoint: metadata entries (returned) and state streams (written to {@code writer}). */
    public Map<String, String> snapshot(TaskSnapshotWriter writer)
    {
        lastSnapshotBytes = 0;
        Map<String, String> metadata = new HashMap<>();
        if (windows.isEmpty()) {
            return metadata;
        }
        metadata.put(WATERMARK, String.valueOf(watermarks.watermark()));
        watermarks.maxEventTimes().forEach((split, time) -> metadata.put(EVENT_TIME + split, String.valueOf(time)));
        for (int i = 0; i < windows.size(); i++) {
            EventTimeWindowAggregation aggregation = windows.get(i);
            StateStreamWriter stream = writer.stream(windowsStream(i), aggregation.stateSchema());
            aggregation.snapshot(batch -> {
                stream.write(batch);
                lastSnapshotBytes += bytes(batch);
            });
            stream.finish();
        }
        if (sessions != null) {
            List<VectorSchemaRoot> state = sessions.snapshot();
            state.forEach(batch -> lastSnapshotBytes += bytes(batch));
            writeState(writer, SESSIONS, sessions.stateSchema(), state);
        }
        return metadata;
    }

    /** Bytes of Arrow state the latest {@link #snapshot} wrote (before compression and encryption). */
    public long lastSnapshotBytes()
    {
        return lastSnapshotBytes;
    }

    private static long bytes(VectorSchemaRoot batch)
    {
        long bytes = 0;
        for (org.apache.arrow.vector.FieldVector vector : batch.getFieldVectors()) {
            bytes += vector.getBufferSize();
        }
        return bytes;
    }

    private static void writeState(TaskSnapshotWriter writer, String name, org.apache.arrow.vector.types.pojo.Schema schema, List<VectorSchemaRoot> state)
    {
        try {
            StateStreamWriter stream = writer.stream(name, schema);
            for (VectorSchemaRoot batch : state) {
                stream.write(batch);
            }
            stream.finish();
        }
        finally {
            Batches.closeAll(state);
        }
    }

    /** Takes back the state a checkpoint holds for this task: its metadata and snapshot (null when the task has none). */
    public void restore(Map<String, String> metadata, TaskSnapshot snapshot, QueryContext context)
    {
        if (windows.isEmpty() || !metadata.containsKey(WATERMARK)) {
            return;
        }
        Map<String, Long> maxEventTimes = new HashMap<>();
        metadata.forEach((key, value) -> {
            if (key.startsWith(EVENT_TIME)) {
                maxEventTimes.put(key.substring(EVENT_TIME.length()), Long.parseLong(value));
            }
        });
        watermarks.restore(maxEventTimes, Long.parseLong(metadata.get(WATERMARK)));
        for (int i = 0; i < windows.size(); i++) {
            readState(snapshot, windowsStream(i), context, windows.get(i)::restore);
        }
        if (sessions != null) {
            readState(snapshot, SESSIONS, context, batch -> sessions.add(batch, EventTimeWindowAggregation.NO_WATERMARK));
        }
    }

    /** The state stream of aggregation {@code index} (innermost 0). */
    private static String windowsStream(int index)
    {
        return index == 0 ? WINDOWS : WINDOWS + "-" + index;
    }

    private static void readState(TaskSnapshot snapshot, String name, QueryContext context, Consumer<VectorSchemaRoot> consumer)
    {
        if (snapshot == null || snapshot.stream(name).isEmpty()) {
            return;
        }
        try (StateStreamReader reader = snapshot.openStream(name, context.allocator())) {
            for (VectorSchemaRoot batch = reader.next(); batch != null; batch = reader.next()) {
                try (VectorSchemaRoot owned = batch) {
                    consumer.accept(owned);
                }
            }
        }
    }

    @Override
    public void close()
    {
        List<AutoCloseable> closing = new ArrayList<>(List.of(input));
        if (sessions != null) {
            closing.add(sessionOutput);
            closing.add(sessions);
        }
        closing.addAll(outputs);
        closing.addAll(windows);
        Batches.closeAll(closing);
    }
}
