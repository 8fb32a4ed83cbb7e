package io.ontul.engine.api.cluster;

/**
 * What a node reports about itself when it registers and with every heartbeat.
 *
 * @param memoryMax the most its engine may allocate for data (bytes)
 * @param memoryUsed what its engine has allocated now (bytes)
 * @param runningTasks the query fragments and streaming tasks it runs now
 * @param catalogs the names of the catalogs it has: the coordinator sends a worker only the parts
 *        of a statement whose catalogs it has
 */
public record NodeStatus(int cores, long memoryMax, long memoryUsed, int runningTasks, java.util.Set<String> catalogs)
{
    public NodeStatus
    {
        if (cores < 0 || memoryMax < 0 || memoryUsed < 0 || runningTasks < 0) {
            throw new IllegalArgumentException("negative figure in " + cores + ", " + memoryMax + ", " + memoryUsed + ", " + runningTasks);
        }
        catalogs = java.util.Set.copyOf(catalogs);
    }

    /** A node without catalogs. */
    public NodeStatus(int cores, long memoryMax, long memoryUsed, int runningTasks)
    {
        this(cores, memoryMax, memoryUsed, runningTasks, java.util.Set.of());
    }
}
