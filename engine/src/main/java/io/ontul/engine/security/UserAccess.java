package io.ontul.engine.security;

import java.util.Collection;
import java.util.List;
import java.util.Set;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/** What one user may do, as the grants stood when it was read ({@link AccessControl#of}). */
public interface UserAccess
{
    String user();

    /** Whether checks can deny at all (false for an engine without access control). */
    boolean isEnforced();

    /**
     * What {@code owner} may do, as the grants stand now: a view reads its tables with its
     * owner's rights (as views do in PostgreSQL, and in Trino by default), so a user granted
     * SELECT on a view reads it without SELECT on the tables under it.
     */
    UserAccess owner(String owner);

    /** Whether the user holds the admin role: then everything is allowed. */
    boolean isAdmin();

    boolean isAllowed(Privilege privilege, Securable object);

    /**
     * Whether listings show {@code object}: the user holds some privilege on it, on what contains
     * it, or on something inside it.
     */
    boolean canSee(Securable object);

    /** Whether the user may grant {@code privilege} on {@code object} to others (WITH GRANT OPTION). */
    boolean canGrant(Privilege privilege, Securable object);

    /** The roles the user holds, built-in ones included, sorted. */
    Set<String> roles();

    /** The row filters and column masks on {@code table} that apply to the user (to a role it holds or to it). */
    default List<Policy> policies(Securable table)
    {
        return List.of();
    }

    /** Whether any row filter or column mask applies to the user at all. */
    default boolean hasPolicies()
    {
        return false;
    }

    /** @throws OntulException PERMISSION_DENIED naming the user, the privilege and the object */
    default void check(Privilege privilege, Securable object)
    {
        if (!isAllowed(privilege, object)) {
            throw denied(user(), privilege, object);
        }
    }

    /** Checks SELECT on each table, in order: the first denied one is named. */
    default void checkSelect(Collection<Securable> tables)
    {
        for (Securable table : List.copyOf(tables)) {
            check(Privilege.SELECT, table);
        }
    }

    static OntulException denied(String user, Privilege privilege, Securable object)
    {
        return new OntulException(ErrorCode.PERMISSION_DENIED, "Access denied: user '" + user + "' cannot " + privilege.phrase() + " " + object);
    }

    /** Everything allowed. */
    static UserAccess unrestricted(String user)
    {
        return new UserAccess()
        {
            @Override
            public UserAccess owner(String owner)
            {
                return unrestricted(owner);
            }

            @Override
            public String user()
            {
                return user;
            }

            @Override
            public boolean isEnforced()
            {
                return false;
            }

            @Override
            public boolean isAdmin()
            {
                return true;
            }

            @Override
            public boolean isAllowed(Privilege privilege, Securable object)
            {
                return true;
            }

            @Override
            public boolean canSee(Securable object)
            {
                return true;
            }

            @Override
            public boolean canGrant(Privilege privilege, Securable object)
            {
                return true;
            }

            @Override
            public Set<String> roles()
            {
                return Set.of();
            }
        };
    }
}
