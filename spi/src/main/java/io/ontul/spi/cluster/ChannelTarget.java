package io.ontul.spi.cluster;

import static java.util.Objects.requireNonNull;

/**
 * The receiving end of one channel of a streaming job's shuffle: channel {@code channel} (the
 * sending task's index) of task {@code task} of attempt {@code attempt} of job {@code jobId}.
 */
public record ChannelTarget(String jobId, long attempt, int task, int channel)
{
    public ChannelTarget
    {
        requireNonNull(jobId, "jobId is null");
    }
}
