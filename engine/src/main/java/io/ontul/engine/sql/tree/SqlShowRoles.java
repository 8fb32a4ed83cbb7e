package io.ontul.engine.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/** {@code SHOW ROLES} (every role) and {@code SHOW CURRENT ROLES} (the roles the session's user holds). */
public final class SqlShowRoles
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("SHOW ROLES", SqlKind.OTHER)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            return new SqlShowRoles(pos, ((SqlLiteral) operands[0]).booleanValue());
        }
    };

    private final boolean current;

    public SqlShowRoles(SqlParserPos pos, boolean current)
    {
        super(pos);
        this.current = current;
    }

    /** SHOW CURRENT ROLES. */
    public boolean isCurrent()
    {
        return current;
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(SqlLiteral.createBoolean(current, SqlParserPos.ZERO));
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword(current ? "SHOW CURRENT ROLES" : "SHOW ROLES");
    }
}
