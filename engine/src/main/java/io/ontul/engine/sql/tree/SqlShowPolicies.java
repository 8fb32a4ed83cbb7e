package io.ontul.engine.sql.tree;

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

/** {@code SHOW POLICIES [ON TABLE t]}: the row filters and column masks. */
public final class SqlShowPolicies
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("SHOW POLICIES", SqlKind.OTHER)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            return new SqlShowPolicies(pos, (SqlIdentifier) operands[0]);
        }
    };

    private final SqlIdentifier table;

    public SqlShowPolicies(SqlParserPos pos, SqlIdentifier table)
    {
        super(pos);
        this.table = table;
    }

    public Optional<SqlIdentifier> table()
    {
        return Optional.ofNullable(table);
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return ImmutableNullableList.of(table);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("SHOW POLICIES");
        if (table != null) {
            writer.keyword("ON TABLE");
            table.unparse(writer, 0, 0);
        }
    }
}
