package io.ontul.engine.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code CREATE USER [IF NOT EXISTS] name PASSWORD 'secret'}. The parser also accepts
 * {@code CREATE OR REPLACE USER}, which the engine rejects with a hint to ALTER USER. The node
 * renders its password as {@code '***'}.
 */
public final class SqlCreateUser
        extends SqlCreate
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE USER", SqlKind.OTHER_DDL)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            throw new UnsupportedOperationException("CREATE USER keeps its password out of its operands and cannot be rebuilt from them");
        }
    };

    private final SqlIdentifier name;
    private final String password;

    public SqlCreateUser(SqlParserPos pos, boolean replace, boolean ifNotExists, SqlIdentifier name, String password)
    {
        super(OPERATOR, pos, replace, ifNotExists);
        this.name = requireNonNull(name, "name is null");
        this.password = requireNonNull(password, "password is null");
    }

    /** The user: one part, lower-cased unless it was quoted. */
    public SqlIdentifier name()
    {
        return name;
    }

    /** The password as written, quotes removed. Never log it. */
    public String password()
    {
        return password;
    }

    public boolean isIfNotExists()
    {
        return ifNotExists;
    }

    /** A copy that keeps the password, which the operator cannot rebuild from the operands. */
    @Override
    public SqlNode clone(SqlParserPos pos)
    {
        return new SqlCreateUser(pos, getReplace(), ifNotExists, name, password);
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
        writer.keyword("CREATE");
        if (getReplace()) {
            writer.keyword("OR REPLACE");
        }
        writer.keyword("USER");
        if (ifNotExists) {
            writer.keyword("IF NOT EXISTS");
        }
        name.unparse(writer, 0, 0);
        PasswordClause.unparse(writer);
    }
}
