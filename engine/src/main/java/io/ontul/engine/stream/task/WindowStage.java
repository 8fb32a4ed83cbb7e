package io.ontul.engine.stream.task;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.operator.Batches;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.plan.TaskContext;
import io.ontul.engine.query.QueryContext;
import io.ontul.engine.stream.plan.ShuffleKey;
import io.ontul.engine.stream.plan.StreamFeedNode;
import io.ontul.engine.stream.plan.StreamingJobPlan;
import io.ontul.engine.stream.shuffle.KeyGroups;
import io.ontul.engine.stream.window.EventTimeSessions;
import io.ontul.engine.stream.window.EventTimeWindowAggregation;
import io.ontul.exchange.checkpoint.StateStreamReader;
import io.ontul.exchange.checkpoint.StateStreamWriter;
import io.ontul.exchange.checkpoint.TaskSnapshot;
import io.ontul.exchange.checkpoint.TaskSnapshotWriter;

/**
 * The keyed part of a windowed job, run by each window task. The rows the source tasks send
 * (after the job's filter/project and window table function) wait in the job's SESSION window, if
 * it has one, and in its window aggregations, innermost first. As the task's watermark passes
 * window ends ({@link #advance}), the rows of every closed window run through the operators above
 * its aggregation into the next one, and those of the last into the sink.
 * <p>
 * On a checkpoint barrier {@link #snapshot} writes the task's watermark as metadata
 * ({@value #WATERMARK}) and the open windows (and sessions) as state streams; {@link #restore}
 * takes back, from every task snapshot of a checkpoint, the state rows of the key groups this
 * task owns now, so a job may restart with another parallelism. Single-threaded, on the task's
 * thread.
 */
final class WindowStage
        implements AutoCloseable
{
    static final String WINDOWS = "windows";
    static final String SESSIONS = "sessions";
    static final String WATERMARK = "watermark";

    private final StreamingJobPlan plan;
    private final EventTimeSessions sessions;
    private final Operator sessionOutput;
    /** The window aggregations, innermost first, with the operators after each. */
    private final List<EventTimeWindowAggregation> windows = new ArrayList<>();
    private final List<Operator> outputs = new ArrayList<>();
    private long lastSnapshotBytes;

    WindowStage(StreamingJobPlan plan, QueryContext context, TaskContext task)
    {
        this.plan = requireNonNull(plan, "plan is null");
        if (plan.aggregations().isEmpty()) {
            throw new IllegalArgumentException("a stateless job has no window stage");
        }
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
    }

    /**
     * Takes what the source tasks sent, with the task's watermark before it (rows of windows
     * closed under it are late): the job's windowed rows for a SESSION window, else the state rows
     * of the source tasks' {@link io.ontul.engine.stream.window.LocalWindowAggregation}.
     */
    void add(VectorSchemaRoot batch, long watermarkBefore)
    {
        if (plan.aggregatesLocally()) {
            windows.get(0).addLocal(batch, watermarkBefore);
        }
        else {
            sessions.add(batch, watermarkBefore);
        }
    }


    /** The task's watermark moved to {@code watermark}: closed sessions and windows go on, the last ones' rows to {@code sink}, which must not keep them. */
    void advance(long watermark, Consumer<VectorSchemaRoot> sink)
    {
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
        List<VectorSchemaRoot> fired = new ArrayList<>(batches);
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

    static void drain(Operator operator, Consumer<VectorSchemaRoot> consumer)
    {
        for (VectorSchemaRoot batch = operator.next(); batch != null; batch = operator.next()) {
            try (VectorSchemaRoot owned = batch) {
                consumer.accept(owned);
            }
        }
    }

    /** Rows left out because their window had closed. */
    long lateRows()
    {
        return windows.get(0).lateRows() + (sessions == null ? 0 : sessions.lateRows());
    }

    /** The task's state for a checkpoint: metadata entries (returned) and state streams (written to {@code writer}). */
    Map<String, String> snapshot(TaskSnapshotWriter writer, long watermark)
    {
        lastSnapshotBytes = 0;
        Map<String, String> metadata = new HashMap<>();
        metadata.put(WATERMARK, String.valueOf(watermark));
        for (int i = 0; i < windows.size(); i++) {
            EventTimeWindowAggregation aggregation = windows.get(i);
            StateStreamWriter stream = writer.stream(windowsStream(i), aggregation.stateSchema());
            aggregation.snapshot(batch -> {
                stream.write(batch);
                lastSnapshotBytes += Batches.bytes(batch);
            });
            stream.finish();
        }
        if (sessions != null) {
            List<VectorSchemaRoot> state = sessions.snapshot();
            state.forEach(batch -> lastSnapshotBytes += Batches.bytes(batch));
            writeState(writer, SESSIONS, sessions.stateSchema(), state);
        }
        return metadata;
    }

    /** Bytes of Arrow state the latest {@link #snapshot} wrote (before compression and encryption). */
    long lastSnapshotBytes()
    {
        return lastSnapshotBytes;
    }

    private static void writeState(TaskSnapshotWriter writer, String name, Schema schema, List<VectorSchemaRoot> state)
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

    /**
     * Takes back the open windows (and sessions) a checkpoint holds: of every task snapshot, the
     * state rows whose key group task {@code task} of {@code parallelism} owns.
     */
    void restore(Collection<TaskSnapshot> snapshots, QueryContext context, int task, int parallelism, int maxParallelism)
    {
        ShuffleKey key = plan.shuffleKey();
        List<KeyGroups> aggregationGroups = key.aggregationStates().stream().map(columns -> new KeyGroups(columns, maxParallelism)).toList();
        KeyGroups sessionGroups = new KeyGroups(key.sessionState(), maxParallelism);
        for (TaskSnapshot snapshot : snapshots) {
            for (int i = 0; i < windows.size(); i++) {
                EventTimeWindowAggregation window = windows.get(i);
                KeyGroups groups = aggregationGroups.get(i);
                readState(snapshot, windowsStream(i), context, batch -> restoreOwned(batch, groups, task, parallelism, context, window::restore));
            }
            if (sessions != null) {
                readState(snapshot, SESSIONS, context, batch -> restoreOwned(batch, sessionGroups, task, parallelism, context,
                        owned -> sessions.add(owned, EventTimeWindowAggregation.NO_WATERMARK)));
            }
        }
    }

    private static void restoreOwned(VectorSchemaRoot state, KeyGroups keyGroups, int task, int parallelism, QueryContext context, Consumer<VectorSchemaRoot> restore)
    {
        if (parallelism == 1) {
            restore.accept(state);
            return;
        }
        VectorSchemaRoot[] byTask = Batches.scatter(state, keyGroups.tasks(state, parallelism), parallelism, context.allocator());
        try {
            if (byTask[task] != null) {
                restore.accept(byTask[task]);
            }
        }
        finally {
            for (VectorSchemaRoot slice : byTask) {
                if (slice != null) {
                    slice.close();
                }
            }
        }
    }

    /** The state stream of aggregation {@code index} (innermost 0). */
    private static String windowsStream(int index)
    {
        return index == 0 ? WINDOWS : WINDOWS + "-" + index;
    }

    private static void readState(TaskSnapshot snapshot, String name, QueryContext context, Consumer<VectorSchemaRoot> consumer)
    {
        if (snapshot.stream(name).isEmpty()) {
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
        List<AutoCloseable> closing = new ArrayList<>();
        if (sessions != null) {
            closing.add(sessionOutput);
            closing.add(sessions);
        }
        closing.addAll(outputs);
        closing.addAll(windows);
        Batches.closeAll(closing);
    }
}
