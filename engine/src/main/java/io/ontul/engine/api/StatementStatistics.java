package io.ontul.engine.api;

/**
 * How much work the engine did to get statements ready to run, since it started: the texts it
 * parsed and the queries it planned (a prepared statement is parsed once, and each of its
 * executions planned once).
 */
public interface StatementStatistics
{
    /** Statement texts parsed, to run or to prepare them. */
    long statementsParsed();

    /** Queries planned (validated, optimized and turned into operators): queries, INSERTs, CREATE TABLE AS, EXPLAIN. */
    long queriesPlanned();
}
