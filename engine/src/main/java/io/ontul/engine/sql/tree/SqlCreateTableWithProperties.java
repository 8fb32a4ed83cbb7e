package io.ontul.engine.sql.tree;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.ddl.SqlCreateTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code CREATE TABLE [IF NOT EXISTS] name (columns) [WITH (...)]} and
 * {@code CREATE TABLE [IF NOT EXISTS] name [WITH (...)] AS query}: Calcite's statement plus the
 * table properties handed to the connector.
 */
public final class SqlCreateTableWithProperties
        extends SqlCreateTable
{
    private final SqlNodeList properties;

    public SqlCreateTableWithProperties(SqlParserPos pos, boolean ifNotExists, SqlIdentifier name, SqlNodeList columns, SqlNodeList properties, SqlNode query)
    {
        super(pos, false, ifNotExists, name, columns, query);
        this.properties = properties == null ? SqlNodeList.EMPTY : properties;
    }

    public SqlNodeList properties()
    {
        return properties;
    }
}
