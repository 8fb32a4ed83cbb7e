package io.ontul.engine.security;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ontul.engine.metadata.StoredGrants;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Access control by SQL grants and roles (PostgreSQL's and Trino's model): privileges granted on
 * catalogs, schemas and tables to users or roles, kept in the metadata store. The built-in role
 * {@value AccessControl#ADMIN_ROLE} may do everything (the server's administrator holds it, and
 * whoever it is granted to); every user holds {@value AccessControl#PUBLIC_ROLE}. The
 * {@code system} catalog is readable by everyone (its tables show each user their own rows), but
 * for {@code system.audit}, which only administrators read.
 * {@value #DEFAULT_GRANTS} grants privileges to {@code public} from the configuration.
 */
public final class Grants
        implements AccessControl
{
    /**
     * Privileges every user holds, from the configuration, {@code ;}-separated:
     * {@code SELECT ON CATALOG tpch; SELECT, INSERT ON SCHEMA memory.default}.
     */
    public static final String DEFAULT_GRANTS = "ontul.security.default-grants";
    /** The catalog whose tables everyone may read, but for {@link #AUDIT_SCHEMA}. */
    public static final String SYSTEM_CATALOG = "system";
    /** The schema of the system catalog only administrators read. */
    public static final String AUDIT_SCHEMA = "audit";
    /** The grantor recorded for the privileges a creator gets on what it creates. */
    public static final String CREATOR = "(creator)";

    private static final Pattern DEFAULT_GRANT = Pattern.compile("\\s*(.+?)\\s+ON\\s+(CATALOG|SCHEMA|TABLE)\\s+(\\S+)\\s*", Pattern.CASE_INSENSITIVE);

    private final StoredGrants store;
    private final String administrator;
    private final List<Grant> defaultGrants;
    private final AuditLog audit;

    /**
     * @param administrator the user that always holds the admin role (the server's first user)
     * @param defaultGrants the value of {@value #DEFAULT_GRANTS}, or null
     */
    public Grants(StoredGrants store, String administrator, String defaultGrants, AuditLog audit)
    {
        this.audit = requireNonNull(audit, "audit is null");
        this.store = requireNonNull(store, "store is null");
        this.administrator = requireNonNull(administrator, "administrator is null");
        this.defaultGrants = parseDefaultGrants(defaultGrants);
    }

    @Override
    public UserAccess of(String user)
    {
        Set<String> roles = new TreeSet<>(store.rolesOf(user));
        roles.add(PUBLIC_ROLE);
        if (user.equals(administrator)) {
            roles.add(ADMIN_ROLE);
        }
        boolean admin = roles.contains(ADMIN_ROLE);
        List<Policy> policies = store.policies().stream().map(Policy::of)
                .filter(policy -> policy.granteeKind().equals(Grant.USER) ? policy.grantee().equals(user) : roles.contains(policy.grantee()))
                .toList();
        List<Grant> held = new ArrayList<>();
        if (!admin) {
            Set<String> grantees = new HashSet<>();
            grantees.add(Grant.USER + ":" + user);
            roles.forEach(role -> grantees.add(Grant.ROLE + ":" + role));
            store.privilegesOf(grantees).forEach(row -> held.add(Grant.of(row)));
            held.addAll(defaultGrants);
        }
        return new GrantedAccess(user, admin, Set.copyOf(roles), List.copyOf(held), policies, this);
    }

    /** Whether {@code user} holds the admin role: one read of its roles, not of its privileges. */
    public boolean isAdmin(String user)
    {
        return user.equals(administrator) || store.rolesOf(user).contains(ADMIN_ROLE);
    }

    @Override
    public AuditLog audit()
    {
        return audit;
    }

    @Override
    public Optional<Grants> grants()
    {
        return Optional.of(this);
    }

    // ---- roles

    public boolean createRole(String role, String createdBy)
    {
        return store.createRole(role, createdBy);
    }

    public boolean dropRole(String role)
    {
        return store.dropRole(role);
    }

    /** Whether {@code role} exists: created, or built in. */
    public boolean roleExists(String role)
    {
        return isBuiltIn(role) || store.roleExists(role);
    }

    public static boolean isBuiltIn(String role)
    {
        return role.equals(ADMIN_ROLE) || role.equals(PUBLIC_ROLE);
    }

    /** Every role, built-in ones included, sorted. */
    public Set<String> roles()
    {
        Set<String> roles = new TreeSet<>(store.roles());
        roles.add(ADMIN_ROLE);
        roles.add(PUBLIC_ROLE);
        return roles;
    }

    public boolean grantRole(String role, String user, String grantedBy)
    {
        return store.grantRole(role, user, grantedBy);
    }

    public boolean revokeRole(String role, String user)
    {
        return store.revokeRole(role, user);
    }

    /** Forgets a dropped user's roles and privileges, so a user created later under its name starts without them. */
    public void userDropped(String user)
    {
        store.dropUser(user);
    }

    // ---- row filters and column masks

    /** Adds a policy; false when one of its kind and name exists on its table. */
    public boolean createPolicy(Policy policy)
    {
        return store.createPolicy(policy.row());
    }

    public boolean dropPolicy(Policy.Kind kind, String name, Securable table)
    {
        return store.dropPolicy(kind.name(), name, table.catalog(), table.schema(), table.table());
    }

    /** Every row filter and column mask, by table. */
    public List<Policy> policies()
    {
        return store.policies().stream().map(Policy::of).toList();
    }

    // ---- privileges

    public boolean grant(Grant grant)
    {
        return store.grant(grant.row());
    }

    public boolean revoke(Grant grant, boolean optionOnly)
    {
        return store.revoke(grant.row(), optionOnly);
    }

    /** Every privilege granted, stored and default ones. */
    public List<Grant> list()
    {
        List<Grant> all = new ArrayList<>();
        store.privileges().forEach(row -> all.add(Grant.of(row)));
        all.addAll(defaultGrants);
        return all;
    }

    /**
     * {@code creator} created {@code object}: it gets every privilege on it, with the grant option,
     * as an owner would (an administrator needs none).
     */
    public void created(Securable object, String creator)
    {
        if (isAdmin(creator)) {
            return;
        }
        Instant now = Instant.now();
        for (Privilege privilege : Privilege.values()) {
            store.grant(new Grant(Grant.USER, creator, privilege, object, true, CREATOR, now).row());
        }
    }

    /** {@code object} was dropped: the privileges on it and inside it go with it. */
    public void dropped(Securable object)
    {
        store.dropObject(object.catalog(), object.schema(), object.table());
    }

    private static List<Grant> parseDefaultGrants(String text)
    {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        List<Grant> grants = new ArrayList<>();
        for (String entry : text.split(";")) {
            if (entry.isBlank()) {
                continue;
            }
            Matcher matcher = DEFAULT_GRANT.matcher(entry);
            if (!matcher.matches()) {
                throw invalidDefault(entry, "expected 'PRIVILEGE[, ...] ON CATALOG|SCHEMA|TABLE name'");
            }
            Securable.Kind kind = Securable.Kind.valueOf(matcher.group(2).toUpperCase(Locale.ROOT));
            List<String> names = List.of(matcher.group(3).toLowerCase(Locale.ROOT).split("\\."));
            int expected = kind.ordinal() + 1;
            if (names.size() != expected) {
                throw invalidDefault(entry, "a " + kind.name().toLowerCase(Locale.ROOT) + " name has " + expected + " part" + (expected == 1 ? "" : "s"));
            }
            Securable object = Securable.of(kind, names);
            for (String word : matcher.group(1).split(",")) {
                String name = word.trim().toUpperCase(Locale.ROOT);
                List<Privilege> privileges;
                if (name.equals("ALL") || name.equals("ALL PRIVILEGES")) {
                    privileges = List.of(Privilege.values());
                }
                else {
                    try {
                        privileges = List.of(Privilege.valueOf(name));
                    }
                    catch (IllegalArgumentException e) {
                        throw invalidDefault(entry, "unknown privilege '" + word.trim() + "' (SELECT, INSERT, UPDATE, DELETE, CREATE, DROP or ALL PRIVILEGES)");
                    }
                }
                for (Privilege privilege : privileges) {
                    grants.add(new Grant(Grant.ROLE, PUBLIC_ROLE, privilege, object, false, DEFAULT_GRANTS, Instant.EPOCH));
                }
            }
        }
        return List.copyOf(grants);
    }

    private static OntulException invalidDefault(String entry, String problem)
    {
        return new OntulException(ErrorCode.INVALID_ARGUMENT, "Invalid " + DEFAULT_GRANTS + " entry '" + entry.trim() + "': " + problem);
    }

    /** The system catalog (but its audit log), and every catalog's information_schema, which shows each user only what they can see. */
    private static boolean isPublicSystemTable(Securable object)
    {
        return object.kind() != Securable.Kind.CATALOG && (object.catalog().equals(SYSTEM_CATALOG) && !object.schema().equals(AUDIT_SCHEMA)
                || object.schema().equals(io.ontul.engine.sql.CatalogSchemas.INFORMATION_SCHEMA));
    }

    /** One user's roles and privileges, read once. */
    private record GrantedAccess(String user, boolean isAdmin, Set<String> roles, List<Grant> held, List<Policy> applying, Grants grants)
            implements UserAccess
    {
        @Override
        public UserAccess owner(String owner)
        {
            return owner.equals(user) ? this : grants.of(owner);
        }

        @Override
        public List<Policy> policies(Securable table)
        {
            return applying.stream().filter(policy -> policy.table().equals(table)).toList();
        }

        @Override
        public boolean hasPolicies()
        {
            return !applying.isEmpty();
        }

        @Override
        public boolean isEnforced()
        {
            return true;
        }

        @Override
        public boolean isAllowed(Privilege privilege, Securable object)
        {
            if (isAdmin || (privilege == Privilege.SELECT && isPublicSystemTable(object))) {
                return true;
            }
            return held.stream().anyMatch(grant -> grant.privilege() == privilege && grant.object().covers(object));
        }

        @Override
        public boolean canSee(Securable object)
        {
            if (isAdmin || object.catalog().equals(SYSTEM_CATALOG) && !object.schema().equals(AUDIT_SCHEMA)) {
                return true;
            }
            if (object.kind() != Securable.Kind.CATALOG && object.schema().equals(io.ontul.engine.sql.CatalogSchemas.INFORMATION_SCHEMA)) {
                // a catalog's information_schema, to whoever sees the catalog (its rows show each user their own)
                return canSee(Securable.catalog(object.catalog()));
            }
            return held.stream().anyMatch(grant -> grant.object().covers(object) || object.covers(grant.object()));
        }

        @Override
        public boolean canGrant(Privilege privilege, Securable object)
        {
            return isAdmin || held.stream().anyMatch(grant -> grant.grantOption() && grant.privilege() == privilege && grant.object().covers(object));
        }
    }
}
