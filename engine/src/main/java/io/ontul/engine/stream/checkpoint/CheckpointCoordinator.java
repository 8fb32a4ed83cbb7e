package io.ontul.engine.stream.checkpoint;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import io.ontul.exchange.checkpoint.CheckpointStore;
import io.ontul.exchange.checkpoint.CompletedCheckpoint;
import io.ontul.exchange.checkpoint.TaskSnapshot;
import io.ontul.exchange.checkpoint.TaskSnapshotWriter;

/**
 * The checkpoint protocol of one job over the Exchange Manager's {@link CheckpointStore}:
 * <ol>
 * <li>each task, on barrier N, pre-commits its sink, writes its snapshot (source positions, state) with
 * {@link #snapshotTask} and sends a {@link Ack} carrying its committable;</li>
 * <li>when every task has acknowledged N, {@link #complete} completes checkpoint N in the store
 * with the committables as its metadata, durably;</li>
 * <li>only then does the caller commit the sinks for N.</li>
 * </ol>
 * {@link #restore} is the other half: it discards incomplete checkpoints and returns the latest
 * complete one's positions and committables, which the job commits again (sinks ignore a replay).
 */
public final class CheckpointCoordinator
{
    private static final String POSITION = "position.";
    private static final String COMMITTABLE = "committable.";

    private final CheckpointStore store;
    private final String jobId;
    private final Set<String> taskIds;

    public CheckpointCoordinator(CheckpointStore store, String jobId, Set<String> taskIds)
    {
        this.store = requireNonNull(store, "store is null");
        this.jobId = requireNonNull(jobId, "jobId is null");
        this.taskIds = Set.copyOf(taskIds);
    }

    /**
     * What a job restarts from: the latest complete checkpoint, or nothing.
     *
     * @param snapshots each task's snapshot (its state metadata and streams), by task id
     */
    public record Restored(long checkpointId, Map<String, Map<String, byte[]>> positionsByTask, List<byte[]> committables, Map<String, TaskSnapshot> snapshots)
    {
        /** The task's state metadata as written with {@link #snapshotTask}, without the positions. */
        /** Every task's source positions together, by split: tasks read disjoint splits. */
        public Map<String, byte[]> positions()
        {
            Map<String, byte[]> merged = new HashMap<>();
            positionsByTask.values().forEach(merged::putAll);
            return merged;
        }

        /** The value of state metadata {@code key} in each task snapshot that has it. */
        public List<String> stateValues(String key)
        {
            List<String> values = new ArrayList<>();
            for (String taskId : new java.util.TreeSet<>(snapshots.keySet())) {
                String value = stateMetadata(taskId).get(key);
                if (value != null) {
                    values.add(value);
                }
            }
            return values;
        }

        /** State metadata entries whose key starts with {@code prefix}, of every task, by the rest of the key. */
        public Map<String, String> stateWithPrefix(String prefix)
        {
            Map<String, String> found = new TreeMap<>();
            for (String taskId : snapshots.keySet()) {
                stateMetadata(taskId).forEach((key, value) -> {
                    if (key.startsWith(prefix)) {
                        found.put(key.substring(prefix.length()), value);
                    }
                });
            }
            return found;
        }

        public Map<String, String> stateMetadata(String taskId)
        {
            TaskSnapshot snapshot = snapshots.get(taskId);
            Map<String, String> state = new TreeMap<>();
            if (snapshot != null) {
                snapshot.metadata().forEach((key, value) -> {
                    if (!key.startsWith(POSITION)) {
                        state.put(key, value);
                    }
                });
            }
            return state;
        }
    }

    /** Coordinator side: discards incomplete checkpoints and returns the latest complete one (or nothing). */
    public Restored restore()
    {
        store.cleanUpIncomplete(jobId);
        return store.latestComplete(jobId).map(CheckpointCoordinator::restored).orElse(new Restored(0, Map.of(), List.of(), Map.of()));
    }

    /**
     * Complete checkpoint {@code checkpointId} as {@link #restore} returns it, without touching
     * other checkpoints: how the tasks of an attempt on a worker read the checkpoint their
     * coordinator restored (0 for none).
     *
     * @throws IllegalStateException when the checkpoint is not complete (or no longer kept)
     */
    public Restored read(long checkpointId)
    {
        if (checkpointId == 0) {
            return new Restored(0, Map.of(), List.of(), Map.of());
        }
        return store.completedCheckpoint(jobId, checkpointId).map(CheckpointCoordinator::restored)
                .orElseThrow(() -> new IllegalStateException("Checkpoint " + checkpointId + " of job " + jobId + " is not a complete checkpoint of the store"));
    }

    private static Restored restored(CompletedCheckpoint checkpoint)
    {
        Map<String, Map<String, byte[]>> positions = new HashMap<>();
        Map<String, TaskSnapshot> snapshots = new HashMap<>();
        for (TaskSnapshot task : checkpoint.tasks()) {
            snapshots.put(task.taskId(), task);
            Map<String, byte[]> taskPositions = new HashMap<>();
            task.metadata().forEach((key, value) -> {
                if (key.startsWith(POSITION)) {
                    taskPositions.put(key.substring(POSITION.length()), Base64.getDecoder().decode(value));
                }
            });
            positions.put(task.taskId(), taskPositions);
        }
        List<byte[]> committables = new ArrayList<>();
        checkpoint.metadata().forEach((key, value) -> {
            if (key.startsWith(COMMITTABLE)) {
                committables.add(Base64.getDecoder().decode(value));
            }
        });
        return new Restored(checkpoint.checkpointId(), positions, committables, snapshots);
    }

    /**
     * Task side: writes the task's part of checkpoint {@code checkpointId}: its source positions,
     * then what {@code writeState} adds: state streams, written to the writer it gets, and state
     * metadata, returned (keys must not start with {@value #POSITION}).
     */
    public void snapshotTask(String taskId, long checkpointId, Map<String, byte[]> positions, Function<TaskSnapshotWriter, Map<String, String>> writeState)
    {
        try (TaskSnapshotWriter writer = store.taskSnapshot(jobId, checkpointId, taskId)) {
            Map<String, String> metadata = new TreeMap<>(writeState.apply(writer));
            positions.forEach((split, position) -> metadata.put(POSITION + split, Base64.getEncoder().encodeToString(position)));
            writer.finish(metadata);
        }
    }

    /**
     * Completes checkpoint {@code checkpointId} in the store, durably, once every task has
     * acknowledged it: its metadata holds the committables of {@code acks}, which are the
     * checkpoint's own and those of aborted checkpoints before it (their rows are committed with
     * this one). Every task id of the job must have acknowledged {@code checkpointId}.
     */
    public void complete(long checkpointId, List<Ack> acks)
    {
        Set<String> acknowledging = new java.util.HashSet<>();
        Map<String, String> metadata = new TreeMap<>();
        for (Ack ack : acks) {
            if (!taskIds.contains(ack.taskId())) {
                throw new IllegalArgumentException("Unknown task " + ack.taskId() + " of job " + jobId);
            }
            if (ack.checkpointId() > checkpointId) {
                throw new IllegalArgumentException("Acknowledgement of checkpoint " + ack.checkpointId() + " by task " + ack.taskId() + " cannot complete checkpoint " + checkpointId);
            }
            if (ack.checkpointId() == checkpointId) {
                acknowledging.add(ack.taskId());
            }
            metadata.put(COMMITTABLE + ack.taskId() + (ack.checkpointId() == checkpointId ? "" : "@" + ack.checkpointId()), Base64.getEncoder().encodeToString(ack.committable()));
        }
        if (!acknowledging.equals(taskIds)) {
            throw new IllegalArgumentException("Checkpoint " + checkpointId + " of job " + jobId + " is missing acknowledgements of " + new java.util.TreeSet<>(
                    taskIds.stream().filter(task -> !acknowledging.contains(task)).toList()));
        }
        store.complete(jobId, checkpointId, metadata);
    }

    public List<Long> completedCheckpointIds()
    {
        return store.completedCheckpointIds(jobId);
    }

    public void deleteAll()
    {
        store.deleteJob(jobId);
    }
}
