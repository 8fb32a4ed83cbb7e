package io.ontul.sdk.stream;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A streaming job described by its parts: what the fluent builder, the REST API's job documents
 * and the Python SDK all describe, and {@link StreamingJobSql} turns into the one {@code CREATE
 * STREAMING JOB} statement the planner takes.
 *
 * @param filters SQL conditions, all of which a row must meet
 * @param window the event-time window and its time column, if the job aggregates per window
 * @param groupBy key columns
 * @param aggregates aggregate expressions with their names ({@code SUM(amount) AS total})
 * @param projections what a job without aggregates selects; empty for every column
 * @param options the job's options ({@code checkpoint.interval}, {@code parallelism}, ...)
 */
public record StreamingJobDefinition(
        String name,
        Source source,
        Sink sink,
        List<String> filters,
        Optional<Window> window,
        List<String> groupBy,
        List<String> aggregates,
        List<String> projections,
        Map<String, String> options)
{
    public StreamingJobDefinition
    {
        requireNonNull(name, "name is null");
        requireNonNull(source, "source is null");
        requireNonNull(sink, "sink is null");
        requireNonNull(window, "window is null");
        filters = List.copyOf(filters);
        groupBy = List.copyOf(groupBy);
        aggregates = List.copyOf(aggregates);
        projections = List.copyOf(projections);
        // one text for the same options, in whatever order they were given
        options = java.util.Collections.unmodifiableMap(new TreeMap<>(options));
        if (name.isBlank()) {
            throw new IllegalArgumentException("A streaming job needs a name");
        }
    }

    /** A window over the event-time column {@code timeColumn}. */
    public record Window(WindowSpec spec, String timeColumn)
    {
        public Window
        {
            requireNonNull(spec, "spec is null");
            requireNonNull(timeColumn, "timeColumn is null");
        }
    }
}
