package io.ontul.engine.query;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

/**
 * A snapshot of one statement as {@code system.runtime.queries} shows it.
 *
 * @param rows rows returned to the client so far, or the update count of a statement that changes data
 * @param bytes Arrow buffer bytes of the result batches returned so far
 * @param peakMemoryBytes the most memory the query held at once (Arrow buffers and reserved heap)
 * @param spilledBytes bytes the query wrote to spill files so far (on disk: compressed and encrypted)
 * @param spillFiles spill files (runs) the query wrote so far
 * @param exchangedBytes bytes (Arrow buffers) the query moved between the nodes of the cluster so
 *        far: received from the workers, and shuffled between them as their fragments reported
 * @param error the failure or cancellation message, if any
 */
public record QueryInfo(
        String queryId,
        String user,
        QueryState state,
        String query,
        Instant created,
        long elapsedMillis,
        long rows,
        long bytes,
        long peakMemoryBytes,
        long spilledBytes,
        long spillFiles,
        long exchangedBytes,
        Optional<String> error)
{
    public QueryInfo
    {
        requireNonNull(queryId, "queryId is null");
        requireNonNull(user, "user is null");
        requireNonNull(state, "state is null");
        requireNonNull(query, "query is null");
        requireNonNull(created, "created is null");
        requireNonNull(error, "error is null");
    }
}
