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

/** {@code CREATE SCHEMA [IF NOT EXISTS] [catalog.]schema [WITH (property = value, ...)]}. */
public final class SqlCreateSchemaWithProperties
        extends SqlCreate
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE SCHEMA", SqlKind.CREATE_SCHEMA);

    private final SqlIdentifier name;
    private final SqlNodeList properties;

    public SqlCreateSchemaWithProperties(SqlParserPos pos, boolean ifNotExists, SqlIdentifier name, SqlNodeList properties)
    {
        super(OPERATOR, pos, false, ifNotExists);
        this.name = requireNonNull(name, "name is null");
        this.properties = properties == null ? SqlNodeList.EMPTY : properties;
    }

    public SqlIdentifier name()
    {
        return name;
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
        return List.of(name, properties);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("CREATE SCHEMA");
        if (ifNotExists) {
            writer.keyword("IF NOT EXISTS");
        }
        name.unparse(writer, 0, 0);
    }
}
