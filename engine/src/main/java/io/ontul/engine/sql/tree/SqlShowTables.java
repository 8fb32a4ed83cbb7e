package io.ontul.engine.sql.tree;

import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/** {@code SHOW TABLES [FROM [catalog.]schema] [LIKE 'pattern']}. */
public final class SqlShowTables
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("SHOW TABLES", SqlKind.OTHER)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            return new SqlShowTables(pos, (SqlIdentifier) operands[0], (SqlCharStringLiteral) operands[1]);
        }
    };

    private final SqlIdentifier schema;
    private final SqlCharStringLiteral likePattern;

    /** {@code schema} and {@code likePattern} are null when the statement leaves them out. */
    public SqlShowTables(SqlParserPos pos, SqlIdentifier schema, SqlCharStringLiteral likePattern)
    {
        super(pos);
        this.schema = schema;
        this.likePattern = likePattern;
    }

    /**
     * The schema after FROM: one part (a schema of the session's catalog) or two (catalog and
     * schema; the parser accepts more, the engine rejects them). Empty means the session's schema.
     */
    public Optional<SqlIdentifier> schema()
    {
        return Optional.ofNullable(schema);
    }

    public Optional<String> likePattern()
    {
        return LikePatterns.value(likePattern);
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return ImmutableNullableList.of(schema, likePattern);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("SHOW TABLES");
        if (schema != null) {
            writer.keyword("FROM");
            schema.unparse(writer, 0, 0);
        }
        LikePatterns.unparse(writer, likePattern);
    }
}
