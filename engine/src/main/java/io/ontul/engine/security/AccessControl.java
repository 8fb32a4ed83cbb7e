package io.ontul.engine.security;

/**
 * Who may do what: the one check every statement passes through. The planner asks it for every
 * table a statement reads (in subqueries, joins, CTAS sources and streaming jobs too), the
 * statement handlers for every table written, every DDL and every CALL; metadata listings show
 * only what it lets a user see. A denial is PERMISSION_DENIED:
 * {@code Access denied: user 'ann' cannot SELECT from table 'pg.public.salaries'}.
 */
public interface AccessControl
{
    /** The built-in role of administrators, who may do everything. */
    String ADMIN_ROLE = "admin";
    /** The built-in role every user holds. */
    String PUBLIC_ROLE = "public";

    /** Everything allowed: an embedded engine without users. */
    AccessControl ALLOW_ALL = UserAccess::unrestricted;

    /**
     * What {@code user} may do, as the grants stand now (one read of the store): take one per
     * statement, so a change of grants or roles counts from the user's next statement.
     */
    UserAccess of(String user);

    /** Where logins, DDL, grants, denials and streaming job control are recorded. */
    default AuditLog audit()
    {
        return AuditLog.NONE;
    }

    /** Where roles and grants are kept and changed; empty when there are none (everything allowed). */
    default java.util.Optional<Grants> grants()
    {
        return java.util.Optional.empty();
    }
}
