package io.ontul.spi.cluster;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * What a worker needs to run its tasks of one attempt of a streaming job: the job as it was
 * created (its statement, default catalog and schema, options and owner), the attempt's number
 * (a worker runs one attempt of a job at a time and drops what belongs to an earlier one), the
 * checkpoint the attempt starts from, and where each task index runs.
 *
 * @param catalog null when the job has no default catalog; likewise {@code schema}
 * @param restoredCheckpointId the complete checkpoint the tasks restore, 0 for none
 * @param placement the worker of task index i (source task i and, for a windowed job, window task i)
 * @param worker the id of the worker the request is for: it runs the indices placed on it
 * @param splits the ids of the source's splits as the coordinator listed them, split j for task
 *        index j mod parallelism: every worker deals the same splits, whatever its own listing says
 */
public record StreamAttemptRequest(String jobName, String jobId, long attempt, String definition, String catalog, String schema, Map<String, String> options,
        String createdBy, long restoredCheckpointId, List<WorkerAddress> placement, String worker, List<String> splits)
{
    public StreamAttemptRequest
    {
        requireNonNull(jobName, "jobName is null");
        requireNonNull(jobId, "jobId is null");
        requireNonNull(definition, "definition is null");
        options = Map.copyOf(requireNonNull(options, "options is null"));
        requireNonNull(createdBy, "createdBy is null");
        placement = List.copyOf(requireNonNull(placement, "placement is null"));
        requireNonNull(worker, "worker is null");
        splits = List.copyOf(requireNonNull(splits, "splits is null"));
    }

    /** The task indices this request's worker runs. */
    public List<Integer> localIndices()
    {
        List<Integer> indices = new java.util.ArrayList<>();
        for (int index = 0; index < placement.size(); index++) {
            if (placement.get(index).id().equals(worker)) {
                indices.add(index);
            }
        }
        return indices;
    }
}
