package io.ontul.bench.streaming;

import static java.util.Objects.requireNonNull;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** A contender's runs, or why it has none. */
record ContenderResult(StreamingContender contender, List<ContenderRun> runs, Optional<String> failure)
{
    ContenderResult
    {
        requireNonNull(contender, "contender is null");
        runs = List.copyOf(requireNonNull(runs, "runs is null"));
        requireNonNull(failure, "failure is null");
    }

    /** The run with the least CPU time. */
    Optional<ContenderRun> best()
    {
        return runs.stream().min(Comparator.comparingLong(ContenderRun::cpuNanos));
    }
}
