package io.ontul.engine.stream.job;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

import org.apache.arrow.memory.BufferAllocator;

import io.ontul.engine.catalog.CatalogManager;
import io.ontul.engine.metadata.StoredStreamingJobs;
import io.ontul.engine.security.AccessControl;
import io.ontul.exchange.checkpoint.CheckpointStore;
import io.ontul.exchange.spill.SpillStore;

/**
 * What streaming jobs take from the engine.
 *
 * @param spillStore where jobs spill window state when their memory runs short
 * @param defaultMaxMemory a job's memory budget unless its option 'max-memory' says (the engine's ontul.query.max-memory)
 * @param accessControl what a job's owner may do: a job is planned, at creation and at each start,
 *        with its owner's privileges
 * @param cluster where the jobs' tasks run: here, or on the workers of a cluster
 */
public record StreamingEnvironment(
        CatalogManager catalogs,
        BufferAllocator rootAllocator,
        ExecutorService workers,
        StoredStreamingJobs store,
        Supplier<CheckpointStore> checkpoints,
        Supplier<SpillStore> spillStore,
        long defaultMaxMemory,
        AccessControl accessControl,
        StreamCluster cluster)
{
    public StreamingEnvironment
    {
        requireNonNull(catalogs, "catalogs is null");
        requireNonNull(rootAllocator, "rootAllocator is null");
        requireNonNull(workers, "workers is null");
        requireNonNull(store, "store is null");
        requireNonNull(checkpoints, "checkpoints is null");
        requireNonNull(spillStore, "spillStore is null");
        requireNonNull(accessControl, "accessControl is null");
        requireNonNull(cluster, "cluster is null");
    }
}
