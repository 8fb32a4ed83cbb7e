package io.ontul.engine.sql.parser;

import org.apache.calcite.sql.parser.SqlParserPos;

/** How an error message names where in the statement it happened. */
public final class SqlPositions
{
    private SqlPositions() {}

    /** {@code "line L:C: "} for a position in the statement's text; empty for none (a node the engine made). */
    public static String prefix(SqlParserPos pos)
    {
        return pos == null || pos.getLineNum() == 0 ? "" : "line " + pos.getLineNum() + ":" + pos.getColumnNum() + ": ";
    }
}
