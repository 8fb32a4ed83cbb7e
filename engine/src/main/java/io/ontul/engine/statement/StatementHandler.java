package io.ontul.engine.statement;

import org.apache.calcite.sql.SqlNode;

import io.ontul.engine.api.QueryResult;

/**
 * Runs one kind of parsed statement. Each statement family (queries, DML, DDL, catalogs, users,
 * streaming jobs, session, procedures) is a class of such methods, registered by statement
 * class in {@link StatementHandlers#STANDARD}.
 *
 * @param <T> the parsed statement's class
 */
@FunctionalInterface
public interface StatementHandler<T extends SqlNode>
{
    /**
     * @return a streaming result for a query; for other statements, the rows or update count of
     *         a statement that has run to completion
     */
    QueryResult execute(T statement, StatementContext context);
}
