package io.ontul.engine.statement;

import static io.ontul.engine.statement.StatementContext.position;

import java.util.List;
import java.util.Optional;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.sql.tree.SqlCreateStreamingJob;
import io.ontul.engine.sql.tree.SqlDropStreamingJob;
import io.ontul.engine.sql.tree.SqlShowStreamingJobs;
import io.ontul.engine.sql.tree.SqlStreamingJobCommand;
import io.ontul.engine.streaming.StreamingJobManager;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * CREATE, DROP, START and STOP STREAMING JOB (administrators), SHOW STREAMING JOBS and DESCRIBE
 * STREAMING JOB, on the engine's {@link StreamingJobManager}.
 */
final class StreamingJobStatements
{
    QueryResult create(SqlCreateStreamingJob create, StatementContext context)
    {
        context.requireAdmin("CREATE STREAMING JOB", create.getParserPosition());
        context.engine().streamingJobs().create(create, context.sql(), Optional.ofNullable(context.session().catalog()), Optional.ofNullable(context.session().schema()), context.session().user());
        return context.updateCount(0);
    }

    QueryResult drop(SqlDropStreamingJob drop, StatementContext context)
    {
        context.requireAdmin("DROP STREAMING JOB", drop.getParserPosition());
        if (!context.engine().streamingJobs().drop(drop.name().getSimple()) && !drop.ifExists()) {
            throw new OntulException(ErrorCode.NOT_FOUND, position(drop.name().getParserPosition()) + "Streaming job '" + drop.name().getSimple() + "' does not exist");
        }
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
                    context.requireAdmin("STOP STREAMING JOB", command.getParserPosition());
                    jobs.stop(name);
                }
                case START -> {
                    context.requireAdmin("START STREAMING JOB", command.getParserPosition());
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
}
