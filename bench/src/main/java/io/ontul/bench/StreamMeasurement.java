package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToLongFunction;

/** The timed runs of one {@link StreamCase}, summarised by their medians. */
public final class StreamMeasurement
{
    private final StreamCase streamCase;
    private final List<StreamRun> runs = new ArrayList<>();
    private String failure;

    public StreamMeasurement(StreamCase streamCase)
    {
        this.streamCase = requireNonNull(streamCase, "streamCase is null");
    }

    public StreamCase streamCase()
    {
        return streamCase;
    }

    public String name()
    {
        return streamCase.name();
    }

    /** Records a timed run; every run of a case must read the same rows. */
    public void record(StreamRun run)
    {
        if (!runs.isEmpty() && runs.get(0).rows() != run.rows()) {
            throw new IllegalStateException(String.format("%s read %d rows, earlier %d", name(), run.rows(), runs.get(0).rows()));
        }
        runs.add(requireNonNull(run, "run is null"));
    }

    /** Marks the case failed; it runs no more and reports no times. */
    public void fail(String message)
    {
        failure = requireNonNull(message, "message is null");
    }

    public Optional<String> failure()
    {
        return Optional.ofNullable(failure);
    }

    /** True when the case has timed runs and never failed. */
    public boolean timed()
    {
        return failure == null && !runs.isEmpty();
    }

    public long medianNanos()
    {
        return median(StreamRun::totalNanos);
    }

    public long minNanos()
    {
        return runs.stream().mapToLong(StreamRun::totalNanos).min().orElseThrow();
    }

    public long maxNanos()
    {
        return runs.stream().mapToLong(StreamRun::totalNanos).max().orElseThrow();
    }

    public long medianFirstBatchNanos()
    {
        return median(StreamRun::firstBatchNanos);
    }

    public long rows()
    {
        return runs.get(0).rows();
    }

    public long bytes()
    {
        return runs.get(0).bytes();
    }

    public long batches()
    {
        return runs.get(0).batches();
    }

    /** Rows per second at the median time. */
    public double rowsPerSecond()
    {
        return rows() / (medianNanos() / 1e9);
    }

    /** Arrow buffer bytes per second at the median time. */
    public double bytesPerSecond()
    {
        return bytes() / (medianNanos() / 1e9);
    }

    /** The lower middle value for an even number of runs. */
    private long median(ToLongFunction<StreamRun> value)
    {
        long[] values = runs.stream().mapToLong(value).sorted().toArray();
        return values[(values.length - 1) / 2];
    }
}
