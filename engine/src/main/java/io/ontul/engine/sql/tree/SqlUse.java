package io.ontul.engine.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code USE [catalog.]schema}: sets the session's default catalog and schema. */
public final class SqlUse
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("USE", SqlKind.OTHER)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            return new SqlUse(pos, (SqlIdentifier) operands[0]);
        }
    };

    private final SqlIdentifier name;

    public SqlUse(SqlParserPos pos, SqlIdentifier name)
    {
        super(pos);
        this.name = requireNonNull(name, "name is null");
    }

    /** One part (a schema of the session's catalog) or two (catalog and schema). */
    public SqlIdentifier name()
    {
        return name;
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(name);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("USE");
        name.unparse(writer, 0, 0);
    }
}
