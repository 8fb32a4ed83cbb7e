package io.ontul.engine.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/** {@code SHOW GRANTS [ON CATALOG c | SCHEMA c.s | TABLE c.s.t] [FOR USER u | ROLE r]}. */
public final class SqlShowGrants
        extends SqlCall
{
    private static final SqlOperator OPERATOR = new SqlSpecialOperator("SHOW GRANTS", SqlKind.OTHER)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            throw new UnsupportedOperationException("SHOW GRANTS keeps its words out of its operands and cannot be rebuilt from them");
        }
    };

    private final String objectKind;
    private final SqlIdentifier object;
    private final String granteeKind;
    private final SqlIdentifier grantee;

    /** Each pair null when the statement does not name it. */
    public SqlShowGrants(SqlParserPos pos, String objectKind, SqlIdentifier object, String granteeKind, SqlIdentifier grantee)
    {
        super(pos);
        this.objectKind = objectKind;
        this.object = object;
        this.granteeKind = granteeKind;
        this.grantee = grantee;
    }

    /** CATALOG, SCHEMA or TABLE, with {@link #object()}. */
    public Optional<String> objectKind()
    {
        return Optional.ofNullable(objectKind);
    }

    public Optional<SqlIdentifier> object()
    {
        return Optional.ofNullable(object);
    }

    /** USER or ROLE, with {@link #grantee()}. */
    public Optional<String> granteeKind()
    {
        return Optional.ofNullable(granteeKind);
    }

    public Optional<SqlIdentifier> grantee()
    {
        return Optional.ofNullable(grantee);
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return ImmutableNullableList.of(object, grantee);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword("SHOW GRANTS");
        if (object != null) {
            writer.keyword("ON " + objectKind);
            object.unparse(writer, 0, 0);
        }
        if (grantee != null) {
            writer.keyword("FOR " + granteeKind);
            grantee.unparse(writer, 0, 0);
        }
    }
}
