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

/** {@code DROP INDEX [IF EXISTS] name ON table}. */
public final class SqlDropIndex
        extends SqlDrop
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP INDEX", SqlKind.DROP_INDEX);

    private final SqlIdentifier name;
    private final SqlIdentifier table;

    public SqlDropIndex(SqlParserPos pos, boolean ifExists, SqlIdentifier name, SqlIdentifier table)
    {
        super(OPERATOR, pos, ifExists);
        this.name = requireNonNull(name, "name is null");
        this.table = requireNonNull(table, "table is null");
    }

    public boolean ifExists()
    {
        return ifExists;
    }

    public SqlIdentifier name()
    {
        return name;
    }

    public SqlIdentifier table()
    {
        return table;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(name, table);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("DROP INDEX");
        if (ifExists) {
            writer.keyword("IF EXISTS");
        }
        name.unparse(writer, 0, 0);
        writer.keyword("ON");
        table.unparse(writer, 0, 0);
    }
}
