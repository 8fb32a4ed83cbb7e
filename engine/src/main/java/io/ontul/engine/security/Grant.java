package io.ontul.engine.security;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

import io.ontul.engine.metadata.StoredGrants;

/**
 * A privilege on an object given to a user or a role.
 *
 * @param granteeKind USER or ROLE
 */
public record Grant(String granteeKind, String grantee, Privilege privilege, Securable object, boolean grantOption, String grantedBy, Instant grantedAt)
{
    public static final String USER = "USER";
    public static final String ROLE = "ROLE";

    public Grant
    {
        requireNonNull(granteeKind, "granteeKind is null");
        requireNonNull(grantee, "grantee is null");
        requireNonNull(privilege, "privilege is null");
        requireNonNull(object, "object is null");
        requireNonNull(grantedBy, "grantedBy is null");
        requireNonNull(grantedAt, "grantedAt is null");
    }

    static Grant of(StoredGrants.Row row)
    {
        return new Grant(row.granteeKind(), row.grantee(), Privilege.valueOf(row.privilege()),
                new Securable(Securable.Kind.valueOf(row.objectKind()), row.catalog(), row.schema(), row.table()), row.grantOption(), row.grantedBy(), row.grantedAt());
    }

    StoredGrants.Row row()
    {
        return new StoredGrants.Row(granteeKind, grantee, privilege.name(), object.kind().name(), object.catalog(), object.schema(), object.table(),
                grantOption, grantedBy, grantedAt);
    }
}
