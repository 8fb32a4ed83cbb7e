package io.ontul.engine.security;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

import io.ontul.engine.metadata.StoredGrants;

/**
 * A row filter (a condition rows of a table must meet to be seen) or a column mask (an
 * expression seen instead of a column's value), for a user or a role. The planner applies the
 * ones that match the reading user wherever the table is read, as if the user had written them;
 * {@code current_user} in them is the reading user.
 *
 * @param expression SQL over the table's columns, as the statement gave it (re-parsed when applied)
 */
public record Policy(Kind kind, String name, Securable table, Optional<String> column, String granteeKind, String grantee, String expression, String createdBy)
{
    public enum Kind
    {
        ROW_FILTER, COLUMN_MASK
    }

    public Policy
    {
        requireNonNull(kind, "kind is null");
        requireNonNull(name, "name is null");
        requireNonNull(table, "table is null");
        requireNonNull(column, "column is null");
        requireNonNull(granteeKind, "granteeKind is null");
        requireNonNull(grantee, "grantee is null");
        requireNonNull(expression, "expression is null");
        requireNonNull(createdBy, "createdBy is null");
    }

    static Policy of(StoredGrants.Policy row)
    {
        return new Policy(Kind.valueOf(row.kind()), row.name(), Securable.table(row.catalog(), row.schema(), row.table()),
                row.column().isEmpty() ? Optional.empty() : Optional.of(row.column()), row.granteeKind(), row.grantee(), row.expression(), row.createdBy());
    }

    StoredGrants.Policy row()
    {
        return new StoredGrants.Policy(kind.name(), name, table.catalog(), table.schema(), table.table(), column.orElse(""), granteeKind, grantee, expression, createdBy);
    }
}
