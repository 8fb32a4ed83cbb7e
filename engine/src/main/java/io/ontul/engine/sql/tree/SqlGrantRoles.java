package io.ontul.engine.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/** {@code GRANT role [, ...] TO USER user} and {@code REVOKE role [, ...] FROM USER user}. */
public final class SqlGrantRoles
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("GRANT ROLE", SqlKind.OTHER_DDL)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            return new SqlGrantRoles(pos, ((SqlLiteral) operands[0]).booleanValue(),
                    ((SqlNodeList) operands[1]).stream().map(SqlIdentifier.class::cast).toList(), (SqlIdentifier) operands[2]);
        }
    };

    private final boolean revoke;
    private final List<SqlIdentifier> roles;
    private final SqlIdentifier user;

    public SqlGrantRoles(SqlParserPos pos, boolean revoke, List<SqlIdentifier> roles, SqlIdentifier user)
    {
        super(pos);
        this.revoke = revoke;
        this.roles = List.copyOf(roles);
        this.user = requireNonNull(user, "user is null");
    }

    /** REVOKE rather than GRANT. */
    public boolean isRevoke()
    {
        return revoke;
    }

    public List<SqlIdentifier> roles()
    {
        return roles;
    }

    public SqlIdentifier user()
    {
        return user;
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(SqlLiteral.createBoolean(revoke, SqlParserPos.ZERO), new SqlNodeList(roles, SqlParserPos.ZERO), user);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword(revoke ? "REVOKE" : "GRANT");
        for (int i = 0; i < roles.size(); i++) {
            if (i > 0) {
                writer.sep(",");
            }
            roles.get(i).unparse(writer, 0, 0);
        }
        writer.keyword(revoke ? "FROM USER" : "TO USER");
        user.unparse(writer, 0, 0);
    }
}
