package io.ontul.sdk;

import static java.util.Objects.requireNonNull;

import java.util.Map;

import io.ontul.sdk.stream.StreamingJobSql;

/** A streaming job by name: its status, and the statements that stop, start and drop it. */
public final class JobHandle
{
    private final OntulSession session;
    private final String name;

    JobHandle(OntulSession session, String name)
    {
        this.session = requireNonNull(session, "session is null");
        this.name = requireNonNull(name, "name is null");
    }

    public String name()
    {
        return name;
    }

    /**
     * The job's row of SHOW STREAMING JOBS (state, records_in, records_out, source_lag, ...).
     *
     * @throws OntulClientException NOT_FOUND when there is no such job
     */
    public Map<String, Object> status()
    {
        return session.jobs().stream()
                .filter(job -> name.equals(job.get("name")))
                .findFirst()
                .orElseThrow(() -> new OntulClientException("NOT_FOUND", "Streaming job '" + name + "' does not exist"));
    }

    /** The job's state: CREATED, RUNNING, RESTARTING, STOPPED or FAILED. */
    public String state()
    {
        return String.valueOf(status().get("state"));
    }

    /** Takes a final checkpoint, commits it and stops. */
    public void stop()
    {
        session.sql("STOP STREAMING JOB " + StreamingJobSql.identifier(name));
    }

    /** Resumes from the last checkpoint. */
    public void start()
    {
        session.sql("START STREAMING JOB " + StreamingJobSql.identifier(name));
    }

    /** Stops the job and deletes it with its checkpoints. */
    public void drop()
    {
        session.sql("DROP STREAMING JOB " + StreamingJobSql.identifier(name));
    }
}
