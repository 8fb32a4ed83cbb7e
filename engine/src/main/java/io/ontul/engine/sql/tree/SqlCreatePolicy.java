package io.ontul.engine.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/**
 * {@code CREATE ROW FILTER name ON TABLE t FOR USER u | ROLE r USING (condition)} and
 * {@code CREATE COLUMN MASK name ON TABLE t (column) FOR USER u | ROLE r USING (expression)}.
 */
public final class SqlCreatePolicy
        extends SqlCreate
{
    public static final String ROW_FILTER = "ROW FILTER";
    public static final String COLUMN_MASK = "COLUMN MASK";

    private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE POLICY", SqlKind.OTHER_DDL)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            throw new UnsupportedOperationException("CREATE ROW FILTER and CREATE COLUMN MASK keep their words out of their operands");
        }
    };

    private final String kind;
    private final SqlIdentifier name;
    private final SqlIdentifier table;
    private final SqlIdentifier column;
    private final String granteeKind;
    private final SqlIdentifier grantee;
    private final SqlNode expression;

    /** @param column the masked column; null for a row filter */
    public SqlCreatePolicy(SqlParserPos pos, String kind, SqlIdentifier name, SqlIdentifier table, SqlIdentifier column, String granteeKind, SqlIdentifier grantee,
            SqlNode expression)
    {
        super(OPERATOR, pos, false, false);
        this.kind = requireNonNull(kind, "kind is null");
        this.name = requireNonNull(name, "name is null");
        this.table = requireNonNull(table, "table is null");
        this.column = column;
        this.granteeKind = requireNonNull(granteeKind, "granteeKind is null");
        this.grantee = requireNonNull(grantee, "grantee is null");
        this.expression = requireNonNull(expression, "expression is null");
    }

    /** {@link #ROW_FILTER} or {@link #COLUMN_MASK}. */
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

    public Optional<SqlIdentifier> column()
    {
        return Optional.ofNullable(column);
    }

    /** USER or ROLE. */
    public String granteeKind()
    {
        return granteeKind;
    }

    public SqlIdentifier grantee()
    {
        return grantee;
    }

    /** The condition of a row filter, the value of a masked column. */
    public SqlNode expression()
    {
        return expression;
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return ImmutableNullableList.of(name, table, column, grantee, expression);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("CREATE " + kind);
        name.unparse(writer, 0, 0);
        writer.keyword("ON TABLE");
        table.unparse(writer, 0, 0);
        if (column != null) {
            writer.sep("(");
            column.unparse(writer, 0, 0);
            writer.sep(")");
        }
        writer.keyword("FOR " + granteeKind);
        grantee.unparse(writer, 0, 0);
        writer.keyword("USING");
        writer.sep("(");
        expression.unparse(writer, 0, 0);
        writer.sep(")");
    }
}
