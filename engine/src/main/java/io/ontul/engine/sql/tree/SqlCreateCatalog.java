package io.ontul.engine.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code CREATE CATALOG [IF NOT EXISTS] name USING connector [WITH (property = value, ...)]}. */
public final class SqlCreateCatalog
        extends SqlCreate
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE CATALOG", SqlKind.OTHER_DDL);

    private final SqlIdentifier name;
    private final SqlIdentifier connector;
    private final SqlNodeList properties;

    public SqlCreateCatalog(SqlParserPos pos, boolean ifNotExists, SqlIdentifier name, SqlIdentifier connector, SqlNodeList properties)
    {
        super(OPERATOR, pos, false, ifNotExists);
        this.name = requireNonNull(name, "name is null");
        this.connector = requireNonNull(connector, "connector is null");
        this.properties = properties == null ? SqlNodeList.EMPTY : properties;
    }

    public SqlIdentifier name()
    {
        return name;
    }

    public SqlIdentifier connector()
    {
        return connector;
    }

    public SqlNodeList properties()
    {
        return properties;
    }

    public boolean ifNotExists()
    {
        return ifNotExists;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(name, connector, properties);
    }

    /** Written without the property values: they may hold passwords. */
    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("CREATE CATALOG");
        if (ifNotExists) {
            writer.keyword("IF NOT EXISTS");
        }
        name.unparse(writer, 0, 0);
        writer.keyword("USING");
        connector.unparse(writer, 0, 0);
    }
}
