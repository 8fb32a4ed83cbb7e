package io.ontul.engine.api;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

import io.ontul.engine.query.QueryInfo;

/**
 * One statement of the engine, running or recently finished, as {@code system.runtime.queries}
 * shows it: what a front reports to its users (a query's page, a benchmark's peak memory).
 *
 * @param state QUEUED, RUNNING, FINISHED, FAILED or CANCELLED
 * @param rows rows returned to the client so far, or the update count of a statement that changes data
 * @param bytes Arrow buffer bytes of the result batches returned so far
 * @param peakMemoryBytes the most memory the statement held at once (Arrow buffers and reserved heap)
 * @param spilledBytes bytes it wrote to spill files so far (on disk: compressed and encrypted)
 * @param spillFiles spill files (runs) it wrote so far
 * @param error the failure or cancellation message, if any
 */
public record QueryStatus(
        String queryId,
        String user,
        String state,
        String query,
        Instant created,
        long elapsedMillis,
        long rows,
        long bytes,
        long peakMemoryBytes,
        long spilledBytes,
        long spillFiles,
        Optional<String> error)
{
    public QueryStatus
    {
        requireNonNull(queryId, "queryId is null");
        requireNonNull(user, "user is null");
        requireNonNull(state, "state is null");
        requireNonNull(query, "query is null");
        requireNonNull(created, "created is null");
        requireNonNull(error, "error is null");
    }

    static QueryStatus of(QueryInfo info)
    {
        return new QueryStatus(info.queryId(), info.user(), info.state().name(), info.query(), info.created(), info.elapsedMillis(), info.rows(), info.bytes(),
                info.peakMemoryBytes(), info.spilledBytes(), info.spillFiles(), info.error());
    }
}
