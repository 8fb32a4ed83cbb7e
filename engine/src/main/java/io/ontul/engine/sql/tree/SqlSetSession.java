package io.ontul.engine.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code SET SESSION [catalog.]name = value}, where the value is a string, a number, TRUE or FALSE. */
public final class SqlSetSession
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("SET SESSION", SqlKind.OTHER)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            return new SqlSetSession(pos, (SqlIdentifier) operands[0], (SqlLiteral) operands[1]);
        }
    };

    private final SqlIdentifier name;
    private final SqlLiteral value;

    public SqlSetSession(SqlParserPos pos, SqlIdentifier name, SqlLiteral value)
    {
        super(pos);
        this.name = requireNonNull(name, "name is null");
        this.value = requireNonNull(value, "value is null");
    }

    /** The property: one part for an engine property, two for a catalog's ({@code catalog.property}). */
    public SqlIdentifier name()
    {
        return name;
    }

    public SqlLiteral value()
    {
        return value;
    }

    /** The value as text: a string's characters, a number as written, {@code true} or {@code false}. */
    public String valueText()
    {
        return value.toValue();
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(name, value);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("SET SESSION");
        name.unparse(writer, 0, 0);
        writer.keyword("=");
        value.unparse(writer, 0, 0);
    }
}
