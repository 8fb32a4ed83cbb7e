package io.ontul.server.flight;

import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;

import io.ontul.engine.sql.parser.OntulParser;
import io.ontul.engine.sql.tree.SqlExplainStatement;
import io.ontul.engine.sql.tree.SqlShowCatalogs;
import io.ontul.engine.sql.tree.SqlShowColumns;
import io.ontul.engine.sql.tree.SqlShowSchemas;
import io.ontul.engine.sql.tree.SqlShowStreamingJobs;
import io.ontul.engine.sql.tree.SqlShowTables;
import io.ontul.engine.sql.tree.SqlShowUsers;
import io.ontul.engine.sql.tree.SqlStreamingJobCommand;

/**
 * Tells, before running a statement, whether it returns rows (queries, SHOW, DESCRIBE,
 * EXPLAIN) or an update count (DDL, DML, SET SESSION, USE). Flight SQL clients need this when
 * they prepare a statement: an empty dataset schema means "update".
 */
public final class StatementKinds
{
    private StatementKinds() {}

    /**
     * @throws io.ontul.spi.OntulException with a positioned message when the SQL does not parse
     */
    public static boolean returnsRows(String sql, io.ontul.engine.sql.parser.StatementLimits limits)
    {
        SqlNode statement = OntulParser.parse(sql, limits);
        return statement instanceof SqlShowCatalogs
                || statement instanceof SqlShowSchemas
                || statement instanceof SqlShowTables
                || statement instanceof SqlShowColumns
                || statement instanceof SqlShowUsers
                || statement instanceof SqlShowStreamingJobs
                || statement instanceof SqlStreamingJobCommand command && command.action() == SqlStreamingJobCommand.Action.DESCRIBE
                || statement instanceof SqlDescribeTable
                || statement instanceof SqlExplainStatement
                || statement instanceof SqlExplain
                || statement.getKind().belongsTo(SqlKind.QUERY);
    }
}
