package io.ontul.spi.cluster;

import static java.util.Objects.requireNonNull;

/**
 * What the coordinator of a streaming job tells a worker about the attempt they share, in order
 * on the attempt's session: start the tasks (every worker has prepared its own, so every
 * receiving task exists before a sender connects), take checkpoint {@code checkpointId}, that
 * checkpoint is complete, end the sources (after the final checkpoint of STOP).
 */
public record StreamCommand(Kind kind, long checkpointId)
{
    public enum Kind
    {
        RUN, BARRIER, COMPLETED, END
    }

    public StreamCommand
    {
        requireNonNull(kind, "kind is null");
    }
}
