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

/**
 * One {@code name = value} of a {@code WITH (...)} list. The name is an identifier (possibly
 * dotted: {@code kafka.bootstrap.servers}) or a string literal ({@code 'connection-url'}); the
 * value is an expression that {@link SqlProperties} reduces to a constant.
 */
public final class SqlProperty
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("PROPERTY", SqlKind.OTHER);

    private final SqlNode key;
    private final SqlNode value;

    public SqlProperty(SqlParserPos pos, SqlNode key, SqlNode value)
    {
        super(pos);
        this.key = requireNonNull(key, "key is null");
        this.value = requireNonNull(value, "value is null");
    }

    /** The name as written: identifier parts joined with dots, or the literal's text. */
    public String name()
    {
        if (key instanceof SqlIdentifier identifier) {
            return String.join(".", identifier.names);
        }
        return ((SqlLiteral) key).getValueAs(String.class);
    }

    public SqlNode key()
    {
        return key;
    }

    public SqlNode value()
    {
        return value;
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(key, value);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        key.unparse(writer, 0, 0);
        writer.keyword("=");
        value.unparse(writer, 0, 0);
    }
}
