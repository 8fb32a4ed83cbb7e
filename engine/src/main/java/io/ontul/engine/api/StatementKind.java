package io.ontul.engine.api;

import io.ontul.engine.execution.StatementKinds;
import io.ontul.engine.sql.parser.OntulParser;
import io.ontul.engine.sql.parser.StatementLimits;

/**
 * What a statement returns, told from its text before it runs: for a client that must choose
 * between a query and an update call (Flight SQL's, JDBC's). With an engine at hand, {@link
 * PreparedStatement#returnsRows} says the same under the engine's own parser limits.
 */
public enum StatementKind
{
    /** Queries, SHOW, DESCRIBE, EXPLAIN. */
    ROWS,
    /** DDL, DML, SET SESSION, USE, CALL: an update count. */
    UPDATE_COUNT;

    /**
     * @throws io.ontul.spi.OntulException with a positioned message when the SQL does not parse
     */
    public static StatementKind of(String sql)
    {
        return StatementKinds.returnsRows(OntulParser.parse(sql, StatementLimits.DEFAULT)) ? ROWS : UPDATE_COUNT;
    }

    public boolean returnsRows()
    {
        return this == ROWS;
    }
}
