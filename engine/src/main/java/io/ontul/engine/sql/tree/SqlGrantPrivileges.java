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

/**
 * {@code GRANT privilege [, ...] | ALL PRIVILEGES ON CATALOG c | SCHEMA c.s | TABLE c.s.t TO USER u | ROLE r
 * [WITH GRANT OPTION]} and {@code REVOKE [GRANT OPTION FOR] ... FROM USER u | ROLE r}.
 */
public final class SqlGrantPrivileges
        extends SqlCall
{
    /** What {@link #privileges()} holds for ALL PRIVILEGES. */
    public static final String ALL = "ALL PRIVILEGES";

    private static final SqlOperator OPERATOR = new SqlSpecialOperator("GRANT", SqlKind.OTHER_DDL)
    {
        @Override
        public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos, SqlNode... operands)
        {
            throw new UnsupportedOperationException("GRANT keeps its words out of its operands and cannot be rebuilt from them");
        }
    };

    private final boolean revoke;
    private final List<String> privileges;
    private final String objectKind;
    private final SqlIdentifier object;
    private final String granteeKind;
    private final SqlIdentifier grantee;
    private final boolean grantOption;

    /**
     * @param privileges SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, or {@link #ALL} alone
     * @param objectKind CATALOG, SCHEMA or TABLE
     * @param granteeKind USER or ROLE
     * @param grantOption WITH GRANT OPTION; for a revoke, GRANT OPTION FOR (only the option is taken back)
     */
    public SqlGrantPrivileges(SqlParserPos pos, boolean revoke, List<String> privileges, String objectKind, SqlIdentifier object,
            String granteeKind, SqlIdentifier grantee, boolean grantOption)
    {
        super(pos);
        this.revoke = revoke;
        this.privileges = List.copyOf(privileges);
        this.objectKind = requireNonNull(objectKind, "objectKind is null");
        this.object = requireNonNull(object, "object is null");
        this.granteeKind = requireNonNull(granteeKind, "granteeKind is null");
        this.grantee = requireNonNull(grantee, "grantee is null");
        this.grantOption = grantOption;
    }

    public boolean isRevoke()
    {
        return revoke;
    }

    public List<String> privileges()
    {
        return privileges;
    }

    public String objectKind()
    {
        return objectKind;
    }

    public SqlIdentifier object()
    {
        return object;
    }

    public String granteeKind()
    {
        return granteeKind;
    }

    public SqlIdentifier grantee()
    {
        return grantee;
    }

    public boolean grantOption()
    {
        return grantOption;
    }

    @Override
    public SqlOperator getOperator()
    {
        return OPERATOR;
    }

    @Override
    public List<SqlNode> getOperandList()
    {
        return List.of(object, grantee);
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec)
    {
        writer.keyword(revoke ? "REVOKE" : "GRANT");
        if (revoke && grantOption) {
            writer.keyword("GRANT OPTION FOR");
        }
        writer.keyword(String.join(", ", privileges));
        writer.keyword("ON " + objectKind);
        object.unparse(writer, 0, 0);
        writer.keyword((revoke ? "FROM " : "TO ") + granteeKind);
        grantee.unparse(writer, 0, 0);
        if (!revoke && grantOption) {
            writer.keyword("WITH GRANT OPTION");
        }
    }
}
