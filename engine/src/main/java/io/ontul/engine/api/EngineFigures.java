package io.ontul.engine.api;

/**
 * The engine's running totals and levels, for metrics: statements since start and now, Arrow
 * memory, and spill files.
 *
 * @param queriesStarted statements registered since the engine started (SHOW and SET included)
 * @param queriesRunning statements running now
 * @param queriesQueued statements waiting for a slot now
 * @param memoryAllocatedBytes Arrow memory allocated now, by queries, streaming jobs and results in flight
 * @param memoryLimitBytes the most Arrow memory the engine may allocate
 * @param spillWrittenBytes spill bytes written since start (compressed and encrypted), deleted files included
 * @param spillReadBytes spill bytes read back since start
 * @param spillOnDiskBytes spill bytes on disk now
 * @param spillFilesWritten spill files started since start
 */
public record EngineFigures(
        long queriesStarted,
        long queriesFinished,
        long queriesFailed,
        long queriesCancelled,
        int queriesRunning,
        int queriesQueued,
        long memoryAllocatedBytes,
        long memoryLimitBytes,
        long spillWrittenBytes,
        long spillReadBytes,
        long spillOnDiskBytes,
        long spillFilesWritten)
{
}
