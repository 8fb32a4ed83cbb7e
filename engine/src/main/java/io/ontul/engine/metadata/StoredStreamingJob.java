package io.ontul.engine.metadata;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A streaming job as the metadata store keeps it.
 *
 * @param jobId unique for the job's whole life: names its checkpoints and its commits in sinks
 * @param definition the CREATE STREAMING JOB statement, planned again whenever the job starts
 * @param catalog the creating session's catalog, for unqualified names in the definition
 * @param schema the creating session's schema
 * @param state CREATED, RUNNING, RESTARTING, STOPPED or FAILED
 */
public record StoredStreamingJob(
        String name,
        String jobId,
        String definition,
        Optional<String> catalog,
        Optional<String> schema,
        Map<String, String> options,
        String state,
        Optional<String> lastError,
        String createdBy,
        Instant createdAt)
{
    public StoredStreamingJob
    {
        requireNonNull(name, "name is null");
        requireNonNull(jobId, "jobId is null");
        requireNonNull(definition, "definition is null");
        requireNonNull(catalog, "catalog is null");
        requireNonNull(schema, "schema is null");
        options = Map.copyOf(requireNonNull(options, "options is null"));
        requireNonNull(state, "state is null");
        requireNonNull(lastError, "lastError is null");
        requireNonNull(createdBy, "createdBy is null");
        requireNonNull(createdAt, "createdAt is null");
    }
}
