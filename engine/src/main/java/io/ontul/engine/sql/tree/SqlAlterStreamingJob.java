package io.ontul.engine.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code ALTER STREAMING JOB name SET ('option' = 'value', ...)}: changes the options of a stopped job. */
public final class SqlAlterStreamingJob
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("ALTER STREAMING JOB", SqlKind.OTHER_DDL);

    private final SqlIdentifier name;
    private final SqlNodeList options;

    public SqlAlterStreamingJob(SqlParserPos pos, SqlIdentifier name, SqlNodeList options)
    {
        super(pos);
        this.name = requireNonNull(name, "name is null");
        this.options = requireNonNull(options, "options is null");
    }

    public SqlIdentifier name()
    {
        return name;
    }

    public SqlNodeList options()
    {
        return options;
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(name, options);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("ALTER STREAMING JOB");
        name.unparse(writer, 0, 0);
        writer.keyword("SET");
        options.unparse(writer, 0, 0);
    }
}
