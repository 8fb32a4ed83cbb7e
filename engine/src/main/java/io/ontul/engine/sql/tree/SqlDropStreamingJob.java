package io.ontul.engine.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code DROP STREAMING JOB [IF EXISTS] name}. */
public final class SqlDropStreamingJob
        extends SqlDrop
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP STREAMING JOB", SqlKind.OTHER_DDL);

    private final SqlIdentifier name;

    public SqlDropStreamingJob(SqlParserPos pos, boolean ifExists, SqlIdentifier name)
    {
        super(OPERATOR, pos, ifExists);
        this.name = requireNonNull(name, "name is null");
    }

    public SqlIdentifier name()
    {
        return name;
    }

    public boolean ifExists()
    {
        return ifExists;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(name);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("DROP STREAMING JOB");
        if (ifExists) {
            writer.keyword("IF EXISTS");
        }
        name.unparse(writer, 0, 0);
    }
}
