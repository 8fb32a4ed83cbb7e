package io.ontul.engine.statement;

import static io.ontul.engine.statement.StatementContext.position;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.security.Grant;
import io.ontul.engine.security.Grants;
import io.ontul.engine.security.Privilege;
import io.ontul.engine.security.Securable;
import io.ontul.engine.security.UserAccess;
import io.ontul.engine.sql.tree.SqlCreateRole;
import io.ontul.engine.sql.tree.SqlDropRole;
import io.ontul.engine.sql.tree.SqlGrantPrivileges;
import io.ontul.engine.sql.tree.SqlGrantRoles;
import io.ontul.engine.sql.tree.SqlShowGrants;
import io.ontul.engine.sql.tree.SqlShowRoles;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Access control statements: CREATE ROLE, DROP ROLE, GRANT and REVOKE of roles and of privileges,
 * SHOW GRANTS, SHOW ROLES, SHOW CURRENT ROLES, over the engine's {@link Grants}. Roles are an
 * administrator's business; a privilege may be granted by an administrator or by a user holding
 * it WITH GRANT OPTION on the object or on what contains it.
 */
final class AccessStatements
{
    static final List<String> GRANT_COLUMNS = List.of("grantee_kind", "grantee", "privilege", "object_kind", "object", "grantable", "granted_by");

    QueryResult createRole(SqlCreateRole create, StatementContext context)
    {
        Grants grants = grants(context, create);
        context.requireAdmin("CREATE ROLE", create.getParserPosition());
        String role = create.name().getSimple();
        if (create.getReplace()) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, position(create.getParserPosition()) + "CREATE OR REPLACE ROLE is not supported");
        }
        if (Grants.isBuiltIn(role) || !grants.createRole(role, context.access().user())) {
            if (!create.ifNotExists) {
                throw new OntulException(ErrorCode.ALREADY_EXISTS, position(create.name().getParserPosition()) + "Role '" + role + "' already exists");
            }
        }
        return context.updateCount(0);
    }

    QueryResult dropRole(SqlDropRole drop, StatementContext context)
    {
        Grants grants = grants(context, drop);
        context.requireAdmin("DROP ROLE", drop.getParserPosition());
        String role = drop.name().getSimple();
        if (Grants.isBuiltIn(role)) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(drop.name().getParserPosition()) + "Role '" + role + "' is built in and cannot be dropped");
        }
        if (!grants.dropRole(role) && !drop.isIfExists()) {
            throw roleNotFound(role, drop.name().getParserPosition());
        }
        return context.updateCount(0);
    }

    QueryResult grantRoles(SqlGrantRoles statement, StatementContext context)
    {
        Grants grants = grants(context, statement);
        String verb = statement.isRevoke() ? "REVOKE" : "GRANT";
        context.requireAdmin(verb + " of a role", statement.getParserPosition());
        String user = statement.user().getSimple();
        if (!context.engine().userManagement().map(users -> users.listUsers().contains(user)).orElse(false)) {
            throw new OntulException(ErrorCode.NOT_FOUND, position(statement.user().getParserPosition()) + "User '" + user + "' does not exist");
        }
        for (SqlIdentifier name : statement.roles()) {
            String role = name.getSimple();
            if (role.equals(Grants.PUBLIC_ROLE)) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(name.getParserPosition()) + "Every user holds role 'public': it cannot be granted or revoked");
            }
            if (!grants.roleExists(role)) {
                throw roleNotFound(role, name.getParserPosition());
            }
            if (statement.isRevoke()) {
                if (!grants.revokeRole(role, user)) {
                    throw new OntulException(ErrorCode.NOT_FOUND, position(name.getParserPosition()) + "User '" + user + "' does not hold role '" + role + "'");
                }
            }
            else {
                grants.grantRole(role, user, context.access().user());
            }
        }
        return context.updateCount(0);
    }

    QueryResult grantPrivileges(SqlGrantPrivileges statement, StatementContext context)
    {
        Grants grants = grants(context, statement);
        Securable object = object(statement.objectKind(), statement.object(), context);
        String granteeKind = statement.granteeKind();
        String grantee = statement.grantee().getSimple();
        checkGrantee(granteeKind, grantee, statement.grantee().getParserPosition(), grants, context);
        UserAccess access = context.access();
        List<Privilege> privileges = privileges(statement.privileges());
        for (Privilege privilege : privileges) {
            if (!access.canGrant(privilege, object)) {
                throw new OntulException(ErrorCode.PERMISSION_DENIED, position(statement.getParserPosition()) + "Access denied: user '" + access.user() + "' cannot "
                        + (statement.isRevoke() ? "revoke " : "grant ") + privilege + " on " + object + " (it needs the privilege WITH GRANT OPTION, or the admin role)");
            }
        }
        boolean changed = false;
        for (Privilege privilege : privileges) {
            Grant grant = new Grant(granteeKind, grantee, privilege, object, statement.grantOption(), access.user(), Instant.now());
            changed |= statement.isRevoke() ? grants.revoke(grant, statement.grantOption()) : grants.grant(grant);
        }
        if (statement.isRevoke() && !changed) {
            throw new OntulException(ErrorCode.NOT_FOUND, position(statement.getParserPosition()) + granteeKind.toLowerCase(java.util.Locale.ROOT) + " '" + grantee
                    + "' holds no " + String.join(", ", statement.privileges()) + " privilege granted on " + object);
        }
        return context.updateCount(0);
    }

    QueryResult showGrants(SqlShowGrants show, StatementContext context)
    {
        Grants grants = grants(context, show);
        UserAccess access = context.access();
        Optional<Securable> object = show.object().map(name -> object(show.objectKind().orElseThrow(), name, context));
        Optional<String> granteeKind = show.granteeKind();
        Optional<String> grantee = show.grantee().map(SqlIdentifier::getSimple);
        // a user sees their own grants and those of the roles they hold; an administrator any
        boolean own = granteeKind.isEmpty()
                || granteeKind.get().equals(Grant.USER) && grantee.get().equals(access.user())
                || granteeKind.get().equals(Grant.ROLE) && access.roles().contains(grantee.get());
        if (!own && !access.isAdmin()) {
            throw new OntulException(ErrorCode.PERMISSION_DENIED, position(show.getParserPosition()) + "Access denied: user '" + access.user()
                    + "' can see only its own grants and those of its roles");
        }
        List<List<String>> rows = new ArrayList<>();
        grants.list().stream()
                .filter(grant -> granteeKind.isPresent()
                        ? grant.granteeKind().equals(granteeKind.get()) && grant.grantee().equals(grantee.get())
                        : grant.granteeKind().equals(Grant.USER) && grant.grantee().equals(access.user())
                                || grant.granteeKind().equals(Grant.ROLE) && access.roles().contains(grant.grantee()))
                .filter(grant -> object.isEmpty() || object.get().covers(grant.object()) || grant.object().covers(object.get()))
                .sorted(Comparator.comparing((Grant grant) -> grant.granteeKind() + ":" + grant.grantee()).thenComparing(grant -> grant.object().name())
                        .thenComparing(grant -> grant.privilege().ordinal()))
                .forEach(grant -> rows.add(List.of(grant.granteeKind(), grant.grantee(), grant.privilege().name(), grant.object().kind().name(), grant.object().name(),
                        grant.grantOption() ? "YES" : "NO", grant.grantedBy())));
        return context.text(GRANT_COLUMNS, rows);
    }

    QueryResult showRoles(SqlShowRoles show, StatementContext context)
    {
        Grants grants = grants(context, show);
        List<String> roles = show.isCurrent() ? List.copyOf(context.access().roles()) : List.copyOf(grants.roles());
        return context.text(List.of("role"), roles.stream().sorted().map(List::of).toList());
    }

    QueryResult createPolicy(io.ontul.engine.sql.tree.SqlCreatePolicy create, StatementContext context)
    {
        Grants grants = grants(context, create);
        context.requireAdmin("CREATE " + create.kind(), create.getParserPosition());
        // on tables only: a view's rows are those of its tables, filtered and masked there
        context.table(create.table());
        Securable table = object("TABLE", create.table(), context);
        String granteeKind = create.granteeKind();
        String grantee = create.grantee().getSimple();
        checkGrantee(granteeKind, grantee, create.grantee().getParserPosition(), grants, context);
        String expression = create.expression().toSqlString(org.apache.calcite.sql.dialect.CalciteSqlDialect.DEFAULT).getSql().replace('\n', ' ');
        String where = quoted(table.catalog()) + "." + quoted(table.schema()) + "." + quoted(table.table());
        Optional<String> column = create.column().map(SqlIdentifier::getSimple);
        // the expression must make sense over the table: planned once as a query over it
        io.ontul.engine.plan.LogicalPlanner planner = context.planner();
        SqlNode check = io.ontul.engine.sql.parser.OntulParser.parse("SELECT (" + expression + ") FROM " + where);
        org.apache.calcite.rel.type.RelDataType type;
        try {
            type = planner.validatedRowType(planner.validate(check)).getFieldList().get(0).getType();
        }
        catch (RuntimeException e) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(create.expression().getParserPosition()) + "The expression of " + create.kind().toLowerCase(java.util.Locale.ROOT)
                    + " '" + create.name().getSimple() + "' does not apply to " + table + ": " + rootMessage(e), e);
        }
        if (column.isEmpty() && type.getSqlTypeName() != org.apache.calcite.sql.type.SqlTypeName.BOOLEAN) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(create.expression().getParserPosition()) + "A row filter's condition must be BOOLEAN; it is " + type);
        }
        if (column.isPresent() && context.table(create.table()).columns().getFields().stream().noneMatch(field -> field.getName().equals(column.get()))) {
            throw new OntulException(ErrorCode.NOT_FOUND, position(create.column().get().getParserPosition()) + "Column '" + column.get() + "' does not exist in " + table);
        }
        io.ontul.engine.security.Policy policy = new io.ontul.engine.security.Policy(
                column.isEmpty() ? io.ontul.engine.security.Policy.Kind.ROW_FILTER : io.ontul.engine.security.Policy.Kind.COLUMN_MASK,
                create.name().getSimple(), table, column, granteeKind, grantee, expression, context.access().user());
        if (!grants.createPolicy(policy)) {
            throw new OntulException(ErrorCode.ALREADY_EXISTS, position(create.name().getParserPosition()) + create.kind().substring(0, 1) + create.kind().substring(1).toLowerCase(java.util.Locale.ROOT)
                    + " '" + create.name().getSimple() + "' already exists on " + table);
        }
        return context.updateCount(0);
    }

    QueryResult dropPolicy(io.ontul.engine.sql.tree.SqlDropPolicy drop, StatementContext context)
    {
        Grants grants = grants(context, drop);
        context.requireAdmin("DROP " + drop.kind(), drop.getParserPosition());
        List<String> qualified = context.qualify(drop.table());
        Securable table = Securable.table(qualified.get(0), qualified.get(1), qualified.get(2));
        io.ontul.engine.security.Policy.Kind kind = drop.kind().equals(io.ontul.engine.sql.tree.SqlCreatePolicy.ROW_FILTER)
                ? io.ontul.engine.security.Policy.Kind.ROW_FILTER : io.ontul.engine.security.Policy.Kind.COLUMN_MASK;
        if (!grants.dropPolicy(kind, drop.name().getSimple(), table) && !drop.isIfExists()) {
            throw new OntulException(ErrorCode.NOT_FOUND, position(drop.name().getParserPosition()) + drop.kind().substring(0, 1) + drop.kind().substring(1).toLowerCase(java.util.Locale.ROOT)
                    + " '" + drop.name().getSimple() + "' does not exist on " + table);
        }
        return context.updateCount(0);
    }

    QueryResult showPolicies(io.ontul.engine.sql.tree.SqlShowPolicies show, StatementContext context)
    {
        Grants grants = grants(context, show);
        context.requireAdmin("SHOW POLICIES", show.getParserPosition());
        Optional<Securable> table = show.table().map(name -> {
            List<String> qualified = context.qualify(name);
            return Securable.table(qualified.get(0), qualified.get(1), qualified.get(2));
        });
        List<List<String>> rows = grants.policies().stream()
                .filter(policy -> table.isEmpty() || policy.table().equals(table.get()))
                .map(policy -> List.of(policy.table().name(), policy.kind().name(), policy.name(), policy.column().orElse(""), policy.granteeKind(), policy.grantee(),
                        policy.expression()))
                .toList();
        return context.text(List.of("table", "kind", "name", "column", "grantee_kind", "grantee", "expression"), rows);
    }

    private static String quoted(String name)
    {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    private static String rootMessage(Throwable e)
    {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage();
    }

    private static void checkGrantee(String kind, String grantee, SqlParserPos pos, Grants grants, StatementContext context)
    {
        if (kind.equals(Grant.ROLE)) {
            if (!grants.roleExists(grantee)) {
                throw roleNotFound(grantee, pos);
            }
            if (grantee.equals(Grants.ADMIN_ROLE)) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(pos) + "Role 'admin' may do everything already: privileges cannot be granted to it");
            }
        }
        else if (!context.engine().userManagement().map(users -> users.listUsers().contains(grantee)).orElse(false)) {
            throw new OntulException(ErrorCode.NOT_FOUND, position(pos) + "User '" + grantee + "' does not exist");
        }
    }

    /** The object named, resolved against the session's catalog and schema; it must exist. */
    private static Securable object(String kind, SqlIdentifier name, StatementContext context)
    {
        List<String> names = name.names;
        SqlParserPos pos = name.getParserPosition();
        return switch (kind) {
            case "CATALOG" -> {
                if (names.size() != 1) {
                    throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(pos) + "A catalog name has one part: '" + name + "'");
                }
                context.connector(names.get(0), pos);
                yield Securable.catalog(names.get(0));
            }
            case "SCHEMA" -> {
                if (names.size() > 2) {
                    throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(pos) + "A schema name has at most two parts (catalog.schema): '" + name + "'");
                }
                String catalog = names.size() == 2 ? names.get(0) : context.defaultCatalog();
                String schema = names.get(names.size() - 1);
                if (!context.connector(catalog, pos).metadata().listSchemas().contains(schema)) {
                    throw new OntulException(ErrorCode.NOT_FOUND, position(pos) + "Schema '" + catalog + "." + schema + "' does not exist");
                }
                yield Securable.schema(catalog, schema);
            }
            default -> {
                List<String> qualified = context.qualify(name);
                context.requireTableOrView(name);
                yield Securable.table(qualified.get(0), qualified.get(1), qualified.get(2));
            }
        };
    }

    private static List<Privilege> privileges(List<String> names)
    {
        if (names.equals(List.of(SqlGrantPrivileges.ALL))) {
            return List.of(Privilege.values());
        }
        return names.stream().distinct().map(Privilege::valueOf).toList();
    }

    private static Grants grants(StatementContext context, SqlNode statement)
    {
        return context.grants().orElseThrow(() -> new OntulException(ErrorCode.NOT_SUPPORTED,
                position(statement.getParserPosition()) + "Roles and grants need the Ontul server (bin/ontul start): an embedded engine allows everything"));
    }

    private static OntulException roleNotFound(String role, SqlParserPos pos)
    {
        return new OntulException(ErrorCode.NOT_FOUND, position(pos) + "Role '" + role + "' does not exist");
    }
}
