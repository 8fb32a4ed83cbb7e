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

/** {@code CREATE ROLE [IF NOT EXISTS] name}. */
public final class SqlCreateRole
        extends SqlCreate
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE ROLE", SqlKind.OTHER_DDL)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            return new SqlCreateRole(pos, false, ((SqlLiteral) operands[0]).booleanValue(), (SqlIdentifier) operands[1]);
        }
    };

    private final SqlIdentifier name;

    public SqlCreateRole(SqlParserPos pos, boolean replace, boolean ifNotExists, SqlIdentifier name)
    {
        super(OPERATOR, pos, replace, ifNotExists);
        this.name = requireNonNull(name, "name is null");
    }

    /** The role: one part, lower-cased unless it was quoted. */
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
        return List.of(SqlLiteral.createBoolean(ifNotExists, SqlParserPos.ZERO), name);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("CREATE ROLE");
        if (ifNotExists) {
            writer.keyword("IF NOT EXISTS");
        }
        name.unparse(writer, 0, 0);
    }
}
