package io.ontul.bench;

/**
 * One read of a whole result, as the client saw it.
 *
 * @param totalNanos from the call that starts the query to the end of the stream
 * @param firstBatchNanos from the same call to the first batch that holds rows
 * @param bytes the Arrow buffer bytes of the batches received (validity, offsets and data)
 */
public record StreamRun(long totalNanos, long firstBatchNanos, long rows, long bytes, long batches)
{
}
