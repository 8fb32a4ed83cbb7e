package io.ontul.engine.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code DESCRIBE | STOP | START STREAMING JOB name}: a statement about one existing job. */
public final class SqlStreamingJobCommand
        extends SqlCall
{
    public enum Action
    {
        DESCRIBE, STOP, START
    }

    private final Action action;
    private final SqlIdentifier name;

    public SqlStreamingJobCommand(SqlParserPos pos, Action action, SqlIdentifier name)
    {
        super(pos);
        this.action = requireNonNull(action, "action is null");
        this.name = requireNonNull(name, "name is null");
    }

    public Action action()
    {
        return action;
    }

    public SqlIdentifier name()
    {
        return name;
    }

    @Override
    public SqlOperator getOperator()
    {
        return new SqlSpecialOperator(action.name() + " STREAMING JOB", action == Action.DESCRIBE ? SqlKind.OTHER : SqlKind.OTHER_DDL);
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(name);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword(action.name() + " STREAMING JOB");
        name.unparse(writer, 0, 0);
    }
}
