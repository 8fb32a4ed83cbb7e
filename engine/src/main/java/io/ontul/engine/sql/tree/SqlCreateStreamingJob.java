package io.ontul.engine.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code CREATE STREAMING JOB [IF NOT EXISTS] name [WITH (option = value, ...)] AS INSERT INTO ...}. */
public final class SqlCreateStreamingJob
        extends SqlCreate
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE STREAMING JOB", SqlKind.OTHER_DDL);

    private final SqlIdentifier name;
    private final SqlNodeList options;
    private final SqlInsert insert;

    public SqlCreateStreamingJob(SqlParserPos pos, boolean ifNotExists, SqlIdentifier name, SqlNodeList options, SqlInsert insert)
    {
        super(OPERATOR, pos, false, ifNotExists);
        this.name = requireNonNull(name, "name is null");
        this.options = options == null ? SqlNodeList.EMPTY : options;
        this.insert = requireNonNull(insert, "insert is null");
    }

    public SqlIdentifier name()
    {
        return name;
    }

    public SqlNodeList options()
    {
        return options;
    }

    public SqlInsert insert()
    {
        return insert;
    }

    public boolean ifNotExists()
    {
        return ifNotExists;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(name, options, insert);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("CREATE STREAMING JOB");
        if (ifNotExists) {
            writer.keyword("IF NOT EXISTS");
        }
        name.unparse(writer, 0, 0);
        writer.keyword("AS");
        insert.unparse(writer, 0, 0);
    }
}
