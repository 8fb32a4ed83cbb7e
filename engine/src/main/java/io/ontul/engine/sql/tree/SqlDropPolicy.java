package io.ontul.engine.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code DROP ROW FILTER [IF EXISTS] name ON TABLE t} and {@code DROP COLUMN MASK [IF EXISTS] name ON TABLE t}. */
public final class SqlDropPolicy
        extends SqlDrop
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP POLICY", SqlKind.OTHER_DDL)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            throw new UnsupportedOperationException("DROP ROW FILTER and DROP COLUMN MASK keep their words out of their operands");
        }
    };

    private final String kind;
    private final SqlIdentifier name;
    private final SqlIdentifier table;

    public SqlDropPolicy(SqlParserPos pos, String kind, boolean ifExists, SqlIdentifier name, SqlIdentifier table)
    {
        super(OPERATOR, pos, ifExists);
        this.kind = requireNonNull(kind, "kind is null");
        this.name = requireNonNull(name, "name is null");
        this.table = requireNonNull(table, "table is null");
    }

    /** {@link SqlCreatePolicy#ROW_FILTER} or {@link SqlCreatePolicy#COLUMN_MASK}. */
    public String kind()
    {
        return kind;
    }

    public SqlIdentifier name()
    {
        return name;
    }

    public SqlIdentifier table()
    {
        return table;
    }

    public boolean isIfExists()
    {
        return ifExists;
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(name, table);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("DROP " + kind);
        if (ifExists) {
            writer.keyword("IF EXISTS");
        }
        name.unparse(writer, 0, 0);
        writer.keyword("ON TABLE");
        table.unparse(writer, 0, 0);
    }
}
