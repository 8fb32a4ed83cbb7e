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

/** {@code SHOW CREATE VIEW [[catalog.]schema.]view}. */
public final class SqlShowCreateView
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("SHOW CREATE VIEW", SqlKind.OTHER)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            return new SqlShowCreateView(pos, (SqlIdentifier) operands[0]);
        }
    };

    private final SqlIdentifier view;

    public SqlShowCreateView(SqlParserPos pos, SqlIdentifier view)
    {
        super(pos);
        this.view = requireNonNull(view, "view is null");
    }

    public SqlIdentifier view()
    {
        return view;
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(view);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("SHOW CREATE VIEW");
        view.unparse(writer, 0, 0);
    }
}
