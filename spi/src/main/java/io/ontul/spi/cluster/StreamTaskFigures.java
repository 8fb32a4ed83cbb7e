package io.ontul.spi.cluster;

/**
 * One task of a streaming job on a worker as it is now: what {@code system.runtime.stream_tasks}
 * and SHOW STREAMING JOBS show of it.
 *
 * @param kind source or window
 * @param assignment what the task reads (partitions) or owns (key groups)
 * @param watermark epoch microseconds, or Long.MIN_VALUE for none
 * @param lag records behind the partitions' ends, -1 when unknown
 * @param partitionLags {@code lag} per partition (split id) of a source task, when known
 */
public record StreamTaskFigures(String taskId, String kind, String assignment, long recordsIn, long recordsOut, long rejected, long late, long watermark, long lag,
        long blockedMillis, long lastCheckpointMillis, long lastCheckpointBytes, java.util.Map<String, Long> partitionLags)
{
    public StreamTaskFigures
    {
        partitionLags = partitionLags == null ? java.util.Map.of() : java.util.Map.copyOf(partitionLags);
    }
}
