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

/** {@code SHOW SCHEMAS [FROM catalog] [LIKE 'pattern']}. */
public final class SqlShowSchemas
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("SHOW SCHEMAS", SqlKind.OTHER)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            return new SqlShowSchemas(pos, (SqlIdentifier) operands[0], (SqlCharStringLiteral) operands[1]);
        }
    };

    private final SqlIdentifier catalog;
    private final SqlCharStringLiteral likePattern;

    /** {@code catalog} and {@code likePattern} are null when the statement leaves them out. */
    public SqlShowSchemas(SqlParserPos pos, SqlIdentifier catalog, SqlCharStringLiteral likePattern)
    {
        super(pos);
        this.catalog = catalog;
        this.likePattern = likePattern;
    }

    /** The catalog after FROM; empty means the session's catalog. */
    public Optional<SqlIdentifier> catalog()
    {
        return Optional.ofNullable(catalog);
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
        return ImmutableNullableList.of(catalog, likePattern);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("SHOW SCHEMAS");
        if (catalog != null) {
            writer.keyword("FROM");
            catalog.unparse(writer, 0, 0);
        }
        LikePatterns.unparse(writer, likePattern);
    }
}
