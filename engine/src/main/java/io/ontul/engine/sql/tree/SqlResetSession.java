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

/** {@code RESET SESSION [catalog.]name}. */
public final class SqlResetSession
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("RESET SESSION", SqlKind.OTHER)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            return new SqlResetSession(pos, (SqlIdentifier) operands[0]);
        }
    };

    private final SqlIdentifier name;

    public SqlResetSession(SqlParserPos pos, SqlIdentifier name)
    {
        super(pos);
        this.name = requireNonNull(name, "name is null");
    }

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
        writer.keyword("RESET SESSION");
        name.unparse(writer, 0, 0);
    }
}
