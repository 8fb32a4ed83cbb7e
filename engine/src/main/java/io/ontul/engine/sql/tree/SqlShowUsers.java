package io.ontul.engine.sql.tree;

import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/** {@code SHOW USERS [LIKE 'pattern']}. */
public final class SqlShowUsers
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("SHOW USERS", SqlKind.OTHER)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            return new SqlShowUsers(pos, (SqlCharStringLiteral) operands[0]);
        }
    };

    private final SqlCharStringLiteral likePattern;

    public SqlShowUsers(SqlParserPos pos, SqlCharStringLiteral likePattern)
    {
        super(pos);
        this.likePattern = likePattern;
    }

    public Optional<String> likePattern()
    {
        return LikePatterns.value(likePattern);
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return ImmutableNullableList.of(likePattern);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("SHOW USERS");
        LikePatterns.unparse(writer, likePattern);
    }
}
