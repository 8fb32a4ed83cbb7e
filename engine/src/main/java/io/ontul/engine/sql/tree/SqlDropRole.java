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

/** {@code DROP ROLE [IF EXISTS] name}. */
public final class SqlDropRole
        extends SqlDrop
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP ROLE", SqlKind.OTHER_DDL)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            return new SqlDropRole(pos, ((SqlLiteral) operands[0]).booleanValue(), (SqlIdentifier) operands[1]);
        }
    };

    private final SqlIdentifier name;

    public SqlDropRole(SqlParserPos pos, boolean ifExists, SqlIdentifier name)
    {
        super(OPERATOR, pos, ifExists);
        this.name = requireNonNull(name, "name is null");
    }

    public SqlIdentifier name()
    {
        return name;
    }

    public boolean isIfExists()
    {
        return ifExists;
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(SqlLiteral.createBoolean(ifExists, SqlParserPos.ZERO), name);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("DROP ROLE");
        if (ifExists) {
            writer.keyword("IF EXISTS");
        }
        name.unparse(writer, 0, 0);
    }
}
