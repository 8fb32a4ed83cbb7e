package io.ontul.engine.sql.tree;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code SHOW STREAMING JOBS}. */
public final class SqlShowStreamingJobs
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("SHOW STREAMING JOBS", SqlKind.OTHER);

    public SqlShowStreamingJobs(SqlParserPos pos)
    {
        super(pos);
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of();
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("SHOW STREAMING JOBS");
    }
}
