package io.ontul.sdk.stream;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.ontul.sdk.OntulSession;

/**
 * Describes a streaming job step by step and creates it with {@link #start()}: the statement it
 * sends is {@link #toSql()}, the same text the REST API and the Python SDK produce for the same job.
 */
public final class StreamBuilder
{
    private final OntulSession session;
    private final Source source;
    private final List<String> filters = new ArrayList<>();
    private final List<String> groupBy = new ArrayList<>();
    private final List<String> aggregates = new ArrayList<>();
    private final List<String> projections = new ArrayList<>();
    private final Map<String, String> options = new LinkedHashMap<>();
    private Optional<StreamingJobDefinition.Window> window = Optional.empty();
    private Sink sink;
    private String name;

    public StreamBuilder(OntulSession session, Source source)
    {
        this.session = session;
        this.source = requireNonNull(source, "source is null");
    }

    /** Keeps the rows that meet {@code condition} (SQL); several filters must all hold. */
    public StreamBuilder filter(String condition)
    {
        filters.add(requireNonNull(condition, "condition is null"));
        return this;
    }

    /** Aggregates per event-time window over {@code timeColumn}. */
    public StreamBuilder window(WindowSpec spec, String timeColumn)
    {
        if (window.isPresent()) {
            throw new IllegalStateException("A job has one window");
        }
        window = Optional.of(new StreamingJobDefinition.Window(spec, timeColumn));
        return this;
    }

    public StreamBuilder groupBy(String... columns)
    {
        groupBy.addAll(List.of(columns));
        return this;
    }

    /** Aggregates with their names: {@code "SUM(amount) AS total"}. */
    public StreamBuilder agg(String... expressions)
    {
        aggregates.addAll(List.of(expressions));
        return this;
    }

    /** What a job without aggregates writes; without it, every column. */
    public StreamBuilder select(String... expressions)
    {
        projections.addAll(List.of(expressions));
        return this;
    }

    public StreamBuilder sink(Sink sink)
    {
        this.sink = requireNonNull(sink, "sink is null");
        return this;
    }

    /** How often rows are committed to the sink, in milliseconds (option {@code checkpoint.interval}). */
    public StreamBuilder commitInterval(long milliseconds)
    {
        return option("checkpoint.interval", StreamingJobSql.durationOption(Duration.ofMillis(milliseconds)));
    }

    /** Tasks of each kind (option {@code parallelism}). */
    public StreamBuilder parallelism(int tasks)
    {
        return option("parallelism", String.valueOf(tasks));
    }

    /** Any option of CREATE STREAMING JOB ... WITH. */
    public StreamBuilder option(String option, String value)
    {
        options.put(requireNonNull(option, "option is null"), requireNonNull(value, "value is null"));
        return this;
    }

    /** The job's name; without one, {@link #start()} makes one up ({@code job_} and random letters). */
    public StreamBuilder name(String name)
    {
        this.name = requireNonNull(name, "name is null");
        return this;
    }

    public StreamingJobDefinition definition()
    {
        if (sink == null) {
            throw new IllegalStateException("Name where the job writes: sink(Sink.iceberg(\"catalog.schema.table\"))");
        }
        if (name == null) {
            name = "job_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        }
        return new StreamingJobDefinition(name, source, sink, filters, window, groupBy, aggregates, projections, options);
    }

    /** The CREATE STREAMING JOB statement {@link #start()} sends. */
    public String toSql()
    {
        return StreamingJobSql.createStatement(definition());
    }

    /**
     * Creates the job (it starts at once) and returns its name.
     *
     * @throws io.ontul.sdk.OntulClientException when the server refuses the statement
     */
    public String start()
    {
        if (session == null) {
            throw new IllegalStateException("This builder has no session to send the job to");
        }
        String sql = toSql();
        session.sql(sql);
        return definition().name();
    }
}
