package io.ontul.exchange.checkpoint;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** A complete checkpoint as its metadata file records it: its own metadata and every task's. */
record CheckpointRecord(String job, long checkpointId, Instant completedAt, Map<String, String> metadata, List<TaskRecord> tasks)
{
    CheckpointRecord
    {
        requireNonNull(job, "job is null");
        requireNonNull(completedAt, "completedAt is null");
        metadata = Metadata.copyOf(metadata);
        tasks = List.copyOf(requireNonNull(tasks, "tasks is null"));
    }
}
