package io.ontul.engine.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code EXPLAIN [ANALYZE] statement}, as in Trino. Calcite's {@code EXPLAIN PLAN FOR statement}
 * still parses, to Calcite's {@link org.apache.calcite.sql.SqlExplain}.
 */
public final class SqlExplainStatement
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("EXPLAIN", SqlKind.OTHER)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            return new SqlExplainStatement(pos, operands[0], ((SqlLiteral) operands[1]).booleanValue());
        }
    };

    private final SqlNode statement;
    private final boolean analyze;

    public SqlExplainStatement(SqlParserPos pos, SqlNode statement, boolean analyze)
    {
        super(pos);
        this.statement = requireNonNull(statement, "statement is null");
        this.analyze = analyze;
    }

    /** The query or DML statement to explain. */
    public SqlNode statement()
    {
        return statement;
    }

    /** Whether to run the statement and report what happened, rather than only show the plan. */
    public boolean isAnalyze()
    {
        return analyze;
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(statement, SqlLiteral.createBoolean(analyze, SqlParserPos.ZERO));
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("EXPLAIN");
        if (analyze) {
            writer.keyword("ANALYZE");
        }
        statement.unparse(writer, 0, 0);
    }
}
