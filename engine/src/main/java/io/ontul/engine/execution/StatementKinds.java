package io.ontul.engine.execution;

import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlCreateTable;

import io.ontul.engine.sql.tree.SqlExplainStatement;
import io.ontul.engine.sql.tree.SqlShowCatalogs;
import io.ontul.engine.sql.tree.SqlShowColumns;
import io.ontul.engine.sql.tree.SqlShowSchemas;
import io.ontul.engine.sql.tree.SqlShowStreamingJobs;
import io.ontul.engine.sql.tree.SqlShowTables;
import io.ontul.engine.sql.tree.SqlShowUsers;
import io.ontul.engine.sql.tree.SqlStreamingJobCommand;

/** What a parsed statement is, as far as running it is concerned, before it runs. */
public final class StatementKinds
{
    private StatementKinds() {}

    /**
     * Whether it returns rows (queries, SHOW, DESCRIBE, EXPLAIN) rather than an update count
     * (DDL, DML, SET SESSION, USE). Flight SQL clients need this when they prepare a statement:
     * an empty dataset schema means "update".
     */
    public static boolean returnsRows(SqlNode statement)
    {
        return statement instanceof SqlShowCatalogs
                || statement instanceof SqlShowSchemas
                || statement instanceof SqlShowTables
                || statement instanceof SqlShowColumns
                || statement instanceof SqlShowUsers
                || statement instanceof io.ontul.engine.sql.tree.SqlShowGrants
                || statement instanceof io.ontul.engine.sql.tree.SqlShowRoles
                || statement instanceof io.ontul.engine.sql.tree.SqlShowPolicies
                || statement instanceof SqlShowStreamingJobs
                || statement instanceof SqlStreamingJobCommand command && command.action() == SqlStreamingJobCommand.Action.DESCRIBE
                || statement instanceof SqlDescribeTable
                || statement instanceof SqlExplainStatement
                || statement instanceof SqlExplain
                || isQuery(statement);
    }

    /** Queries and statements that run one: only they count against ontul.query.max-concurrent. */
    static boolean takesSlot(SqlNode statement)
    {
        return isQuery(statement)
                || statement instanceof SqlInsert
                || statement instanceof SqlCreateTable create && create.query != null
                || statement instanceof SqlExplainStatement explain && explain.isAnalyze();
    }

    /**
     * Whether {@code ?} markers may appear: queries and INSERT, the statements a prepared
     * statement validates once for the markers' types and copies for each execution.
     */
    static boolean takesParameters(SqlNode statement)
    {
        return isQuery(statement) || statement instanceof SqlInsert;
    }

    /**
     * What the audit log records a statement as, when it records it: GRANT and REVOKE, role and
     * user changes as GRANT or DDL, DDL, streaming job control; empty for queries, DML, SHOW and
     * session statements (a denied one is recorded all the same, as DENIED).
     */
    static java.util.Optional<io.ontul.engine.security.AuditLog.Kind> auditKind(SqlNode statement)
    {
        if (statement instanceof io.ontul.engine.sql.tree.SqlGrantPrivileges || statement instanceof io.ontul.engine.sql.tree.SqlGrantRoles
                || statement instanceof io.ontul.engine.sql.tree.SqlCreateRole || statement instanceof io.ontul.engine.sql.tree.SqlDropRole
                || statement instanceof io.ontul.engine.sql.tree.SqlCreatePolicy || statement instanceof io.ontul.engine.sql.tree.SqlDropPolicy) {
            return java.util.Optional.of(io.ontul.engine.security.AuditLog.Kind.GRANT);
        }
        if (statement instanceof io.ontul.engine.sql.tree.SqlCreateStreamingJob || statement instanceof io.ontul.engine.sql.tree.SqlDropStreamingJob
                || statement instanceof io.ontul.engine.sql.tree.SqlAlterStreamingJob
                || statement instanceof SqlStreamingJobCommand command && command.action() != SqlStreamingJobCommand.Action.DESCRIBE) {
            return java.util.Optional.of(io.ontul.engine.security.AuditLog.Kind.STREAMING_JOB);
        }
        if (statement.getKind().belongsTo(SqlKind.DDL) || statement.getKind() == SqlKind.OTHER_DDL) {
            return java.util.Optional.of(io.ontul.engine.security.AuditLog.Kind.DDL);
        }
        return java.util.Optional.empty();
    }

    static boolean isQuery(SqlNode statement)
    {
        return statement.getKind().belongsTo(SqlKind.QUERY);
    }
}
