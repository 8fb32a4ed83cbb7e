package io.ontul.engine.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (column, ...)}. */
public final class SqlCreateIndex
        extends SqlCreate
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE INDEX", SqlKind.CREATE_INDEX);

    private final boolean unique;
    private final SqlIdentifier name;
    private final SqlIdentifier table;
    private final SqlNodeList columns;

    public SqlCreateIndex(SqlParserPos pos, boolean unique, boolean ifNotExists, SqlIdentifier name, SqlIdentifier table, SqlNodeList columns)
    {
        super(OPERATOR, pos, false, ifNotExists);
        this.unique = unique;
        this.name = requireNonNull(name, "name is null");
        this.table = requireNonNull(table, "table is null");
        this.columns = requireNonNull(columns, "columns is null");
    }

    public boolean unique()
    {
        return unique;
    }

    public boolean ifNotExists()
    {
        return ifNotExists;
    }

    public SqlIdentifier name()
    {
        return name;
    }

    public SqlIdentifier table()
    {
        return table;
    }

    public SqlNodeList columns()
    {
        return columns;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(name, table, columns);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword(unique ? "CREATE UNIQUE INDEX" : "CREATE INDEX");
        if (ifNotExists) {
            writer.keyword("IF NOT EXISTS");
        }
        name.unparse(writer, 0, 0);
        writer.keyword("ON");
        table.unparse(writer, 0, 0);
        columns.unparse(writer, 0, 0);
    }
}
