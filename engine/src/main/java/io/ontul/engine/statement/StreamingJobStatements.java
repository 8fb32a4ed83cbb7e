package io.ontul.engine.statement;

import static io.ontul.engine.statement.StatementContext.position;

import java.util.List;
import java.util.Optional;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.sql.tree.SqlAlterStreamingJob;
import io.ontul.engine.sql.tree.SqlCreateStreamingJob;
import io.ontul.engine.sql.tree.SqlDropStreamingJob;
import io.ontul.engine.sql.tree.SqlShowStreamingJobs;
import io.ontul.engine.sql.tree.SqlStreamingJobCommand;
import io.ontul.engine.stream.job.StreamingJobManager;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * CREATE, ALTER, DROP, START and STOP STREAMING JOB, SHOW STREAMING JOBS and DESCRIBE STREAMING JOB, on
 * the engine's {@link StreamingJobManager}. Anyone may create a job: it runs as its creator, who
 * needs SELECT on its sources and INSERT on its sink (checked when it is planned, at creation and
 * at every start); its owner or an administrator may stop, start and drop it.
 */
final class StreamingJobStatements
{
    QueryResult create(SqlCreateStreamingJob create, StatementContext context)
    {
        context.engine().streamingJobs().create(create, context.sql(), Optional.ofNullable(context.session().catalog()), Optional.ofNullable(context.session().schema()),
                context.access().user());
        return context.updateCount(0);
    }

    QueryResult drop(SqlDropStreamingJob drop, StatementContext context)
    {
        StreamingJobManager jobs = context.engine().streamingJobs();
        String name = drop.name().getSimple();
        if (jobs.exists(name)) {
            requireOwner(jobs, name, "DROP", drop.getParserPosition(), context);
        }
        if (!jobs.drop(name) && !drop.ifExists()) {
            throw new OntulException(ErrorCode.NOT_FOUND, position(drop.name().getParserPosition()) + "Streaming job '" + drop.name().getSimple() + "' does not exist");
        }
        return context.updateCount(0);
    }

    QueryResult alter(SqlAlterStreamingJob alter, StatementContext context)
    {
        StreamingJobManager jobs = context.engine().streamingJobs();
        String name = alter.name().getSimple();
        if (!jobs.exists(name)) {
            throw new OntulException(ErrorCode.NOT_FOUND, position(alter.name().getParserPosition()) + "Streaming job '" + name + "' does not exist");
        }
        requireOwner(jobs, name, "ALTER", alter.getParserPosition(), context);
        jobs.alter(name, io.ontul.engine.sql.tree.SqlProperties.text(alter.options()));
        return context.updateCount(0);
    }

    QueryResult show(SqlShowStreamingJobs show, StatementContext context)
    {
        return context.rows(StreamingJobManager.SHOW_COLUMNS, context.engine().streamingJobs().show());
    }

    QueryResult command(SqlStreamingJobCommand command, StatementContext context)
    {
        String name = command.name().getSimple();
        StreamingJobManager jobs = context.engine().streamingJobs();
        try {
            switch (command.action()) {
                case DESCRIBE -> {
                    return context.text(List.of("property", "value"), jobs.describe(name));
                }
                case STOP -> {
                    requireOwner(jobs, name, "STOP", command.getParserPosition(), context);
                    jobs.stop(name);
                }
                case START -> {
                    requireOwner(jobs, name, "START", command.getParserPosition(), context);
                    jobs.start(name);
                }
            }
        }
        catch (OntulException e) {
            if (e.code() == ErrorCode.NOT_FOUND && e.getMessage().startsWith("Streaming job '")) {
                throw new OntulException(ErrorCode.NOT_FOUND, position(command.name().getParserPosition()) + e.getMessage(), e);
            }
            throw e;
        }
        return context.updateCount(0);
    }

    /** Only the job's owner or an administrator controls a job. */
    private static void requireOwner(StreamingJobManager jobs, String name, String action, org.apache.calcite.sql.parser.SqlParserPos pos, StatementContext context)
    {
        String owner = jobs.owner(name);
        io.ontul.engine.security.UserAccess access = context.access();
        if (!owner.equals(access.user()) && !access.isAdmin()) {
            throw new OntulException(ErrorCode.PERMISSION_DENIED, position(pos) + "Access denied: user '" + access.user() + "' cannot " + action
                    + " streaming job '" + name + "': only its owner '" + owner + "' or an administrator can");
        }
    }
}
