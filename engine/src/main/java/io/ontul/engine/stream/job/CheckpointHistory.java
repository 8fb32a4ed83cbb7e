package io.ontul.engine.stream.job;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import io.ontul.engine.stream.job.JobFigures.CompletedCheckpoint;

/** The latest checkpoints a job completed, for its figures (a chart of their durations, a histogram). Thread-safe. */
final class CheckpointHistory
{
    /** Checkpoints kept: a few minutes at the default interval, enough between two metric scrapes. */
    static final int SIZE = 120;

    private final Deque<CompletedCheckpoint> recent = new ArrayDeque<>();
    private long completed;

    synchronized void add(CompletedCheckpoint checkpoint)
    {
        if (recent.size() == SIZE) {
            recent.removeFirst();
        }
        recent.addLast(checkpoint);
        completed++;
    }

    synchronized long completed()
    {
        return completed;
    }

    synchronized List<CompletedCheckpoint> recent()
    {
        return List.copyOf(recent);
    }
}
