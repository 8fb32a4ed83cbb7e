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

/** {@code ALTER USER name PASSWORD 'secret'}. The node renders its password as {@code '***'}. */
public final class SqlAlterUser
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("ALTER USER", SqlKind.OTHER_DDL)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            throw new UnsupportedOperationException("ALTER USER keeps its password out of its operands and cannot be rebuilt from them");
        }
    };

    private final SqlIdentifier name;
    private final String password;

    public SqlAlterUser(SqlParserPos pos, SqlIdentifier name, String password)
    {
        super(pos);
        this.name = requireNonNull(name, "name is null");
        this.password = requireNonNull(password, "password is null");
    }

    /** The user: one part, lower-cased unless it was quoted. */
    public SqlIdentifier name()
    {
        return name;
    }

    /** The new password as written, quotes removed. Never log it. */
    public String password()
    {
        return password;
    }

    /** A copy that keeps the password, which the operator cannot rebuild from the operands. */
    @Override
    public SqlNode clone(SqlParserPos pos)
    {
        return new SqlAlterUser(pos, name, password);
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
        writer.keyword("ALTER USER");
        name.unparse(writer, 0, 0);
        PasswordClause.unparse(writer);
    }
}
