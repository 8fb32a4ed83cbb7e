package io.ontul.engine.metadata;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Roles, who holds them, the privileges granted on catalogs, schemas and tables, and row filters
 * and column masks: the rows of access control ({@code ontul_roles}, {@code ontul_role_members},
 * {@code ontul_privileges}, {@code ontul_policies}). Plain
 * strings: what they mean is {@code engine.security}'s business. Each change is one transaction.
 */
public final class StoredGrants
{
    /**
     * One granted privilege. {@code schema} and {@code table} are "" where the object is a catalog
     * (or a schema).
     */
    public record Row(String granteeKind, String grantee, String privilege, String objectKind, String catalog, String schema, String table,
            boolean grantOption, String grantedBy, Instant grantedAt) {}

    private final MetadataStore store;

    StoredGrants(MetadataStore store)
    {
        this.store = requireNonNull(store, "store is null");
    }

    // ---- roles

    /** Adds a role unless it exists; returns whether it did. */
    public boolean createRole(String role, String createdBy)
    {
        return store.insertUnlessPresent(connection -> {
            if (exists(connection, "SELECT 1 FROM ontul_roles WHERE name = ?", role)) {
                return false;
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO ontul_roles (name, created_by, created_at) VALUES (?, ?, ?)")) {
                insert.setString(1, role);
                insert.setString(2, createdBy);
                insert.setTimestamp(3, Timestamp.from(Instant.now()));
                insert.executeUpdate();
            }
            return true;
        });
    }

    /** Removes a role with its members and its privileges; returns whether it existed. */
    public boolean dropRole(String role)
    {
        return store.inTransaction(connection -> {
            update(connection, "DELETE FROM ontul_role_members WHERE role_name = ?", role);
            update(connection, "DELETE FROM ontul_privileges WHERE grantee_kind = 'ROLE' AND grantee = ?", role);
            update(connection, "DELETE FROM ontul_policies WHERE grantee_kind = 'ROLE' AND grantee = ?", role);
            return update(connection, "DELETE FROM ontul_roles WHERE name = ?", role) > 0;
        });
    }

    public boolean roleExists(String role)
    {
        return store.inTransaction(connection -> exists(connection, "SELECT 1 FROM ontul_roles WHERE name = ?", role));
    }

    /** Every role created, sorted. */
    public Set<String> roles()
    {
        return store.inTransaction(connection -> strings(connection, "SELECT name FROM ontul_roles"));
    }

    /** Gives {@code role} to {@code user}; returns false when the user held it already. */
    public boolean grantRole(String role, String user, String grantedBy)
    {
        return store.insertUnlessPresent(connection -> {
            if (exists(connection, "SELECT 1 FROM ontul_role_members WHERE role_name = ? AND user_name = ?", role, user)) {
                return false;
            }
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO ontul_role_members (role_name, user_name, granted_by, granted_at) VALUES (?, ?, ?, ?)")) {
                insert.setString(1, role);
                insert.setString(2, user);
                insert.setString(3, grantedBy);
                insert.setTimestamp(4, Timestamp.from(Instant.now()));
                insert.executeUpdate();
            }
            return true;
        });
    }

    /** Takes {@code role} from {@code user}; returns whether the user held it. */
    public boolean revokeRole(String role, String user)
    {
        return store.inTransaction(connection -> update(connection, "DELETE FROM ontul_role_members WHERE role_name = ? AND user_name = ?", role, user) > 0);
    }

    /** The roles {@code user} was granted, sorted. */
    public Set<String> rolesOf(String user)
    {
        return store.inTransaction(connection -> strings(connection, "SELECT role_name FROM ontul_role_members WHERE user_name = ?", user));
    }

    /** Forgets a dropped user: its roles and its privileges. */
    public void dropUser(String user)
    {
        store.inTransaction(connection -> {
            update(connection, "DELETE FROM ontul_role_members WHERE user_name = ?", user);
            update(connection, "DELETE FROM ontul_policies WHERE grantee_kind = 'USER' AND grantee = ?", user);
            return update(connection, "DELETE FROM ontul_privileges WHERE grantee_kind = 'USER' AND grantee = ?", user);
        });
    }

    // ---- privileges

    /**
     * Grants a privilege; a grant that exists keeps its grantor and gains the grant option if this
     * one has it. Returns false when nothing changed.
     */
    public boolean grant(Row row)
    {
        return store.insertUnlessPresent(connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT grant_option FROM ontul_privileges " + KEY)) {
                bindKey(select, row);
                try (ResultSet rows = select.executeQuery()) {
                    if (rows.next()) {
                        if (rows.getBoolean(1) || !row.grantOption()) {
                            return false;
                        }
                        try (PreparedStatement upgrade = connection.prepareStatement("UPDATE ontul_privileges SET grant_option = TRUE " + KEY)) {
                            bindKey(upgrade, row);
                            upgrade.executeUpdate();
                        }
                        return true;
                    }
                }
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO ontul_privileges (grantee_kind, grantee, privilege, object_kind, catalog_name, "
                    + "schema_name, table_name, grant_option, granted_by, granted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                bindKey(insert, row);
                insert.setBoolean(8, row.grantOption());
                insert.setString(9, row.grantedBy());
                insert.setTimestamp(10, Timestamp.from(row.grantedAt()));
                insert.executeUpdate();
            }
            return true;
        });
    }

    /**
     * Revokes the privilege of {@code row} (its grant option alone when {@code optionOnly}); returns
     * whether there was such a grant.
     */
    public boolean revoke(Row row, boolean optionOnly)
    {
        return store.inTransaction(connection -> {
            try (PreparedStatement statement = connection.prepareStatement(optionOnly
                    ? "UPDATE ontul_privileges SET grant_option = FALSE " + KEY
                    : "DELETE FROM ontul_privileges " + KEY)) {
                bindKey(statement, row);
                return statement.executeUpdate() > 0;
            }
        });
    }

    /** The privileges granted to any of these grantees ({@code kind:name}, e.g. {@code ROLE:public}). */
    public List<Row> privilegesOf(Collection<String> grantees)
    {
        return store.inTransaction(connection -> {
            List<Row> result = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS + " FROM ontul_privileges");
                    ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    Row row = row(rows);
                    if (grantees.contains(row.granteeKind() + ":" + row.grantee())) {
                        result.add(row);
                    }
                }
            }
            return result;
        });
    }

    /** Every privilege granted. */
    public List<Row> privileges()
    {
        return store.inTransaction(connection -> {
            List<Row> result = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS + " FROM ontul_privileges");
                    ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    result.add(row(rows));
                }
            }
            return result;
        });
    }

    /**
     * Forgets the privileges on a dropped object and on everything inside it ({@code schema} or
     * {@code table} "" for a catalog or a schema), so that an object created later under the same
     * name starts without them.
     */
    public void dropObject(String catalog, String schema, String table)
    {
        store.inTransaction(connection -> {
            for (String rows : List.of("ontul_privileges", "ontul_policies")) {
                if (schema.isEmpty()) {
                    update(connection, "DELETE FROM " + rows + " WHERE catalog_name = ?", catalog);
                }
                else if (table.isEmpty()) {
                    update(connection, "DELETE FROM " + rows + " WHERE catalog_name = ? AND schema_name = ?", catalog, schema);
                }
                else {
                    update(connection, "DELETE FROM " + rows + " WHERE catalog_name = ? AND schema_name = ? AND table_name = ?", catalog, schema, table);
                }
            }
            return null;
        });
    }

    // ---- row filters and column masks

    /** A row filter ({@code column} "") or a column mask on a table, for a user or a role. */
    public record Policy(String kind, String name, String catalog, String schema, String table, String column, String granteeKind, String grantee,
            String expression, String createdBy) {}

    /** Adds a policy unless one of its kind and name exists on the table; returns whether it did. */
    public boolean createPolicy(Policy policy)
    {
        return store.insertUnlessPresent(connection -> {
            if (exists(connection, "SELECT 1 FROM ontul_policies WHERE kind = ? AND catalog_name = ? AND schema_name = ? AND table_name = ? AND name = ?",
                    policy.kind(), policy.catalog(), policy.schema(), policy.table(), policy.name())) {
                return false;
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO ontul_policies (kind, name, catalog_name, schema_name, table_name, column_name, "
                    + "grantee_kind, grantee, expression, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                String[] values = {policy.kind(), policy.name(), policy.catalog(), policy.schema(), policy.table(), policy.column(), policy.granteeKind(),
                        policy.grantee(), policy.expression(), policy.createdBy()};
                for (int i = 0; i < values.length; i++) {
                    insert.setString(i + 1, values[i]);
                }
                insert.setTimestamp(11, Timestamp.from(Instant.now()));
                insert.executeUpdate();
            }
            return true;
        });
    }

    /** Removes a policy; returns whether it existed. */
    public boolean dropPolicy(String kind, String name, String catalog, String schema, String table)
    {
        return store.inTransaction(connection -> update(connection,
                "DELETE FROM ontul_policies WHERE kind = ? AND name = ? AND catalog_name = ? AND schema_name = ? AND table_name = ?", kind, name, catalog, schema, table) > 0);
    }

    /** Every policy, by table and name. */
    public List<Policy> policies()
    {
        return store.inTransaction(connection -> {
            List<Policy> result = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT kind, name, catalog_name, schema_name, table_name, column_name, grantee_kind, grantee, "
                    + "expression, created_by FROM ontul_policies ORDER BY catalog_name, schema_name, table_name, kind, name");
                    ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    result.add(new Policy(rows.getString(1), rows.getString(2), rows.getString(3), rows.getString(4), rows.getString(5), rows.getString(6),
                            rows.getString(7), rows.getString(8), rows.getString(9), rows.getString(10)));
                }
            }
            return result;
        });
    }

    private static final String COLUMNS = "grantee_kind, grantee, privilege, object_kind, catalog_name, schema_name, table_name, grant_option, granted_by, granted_at";
    private static final String KEY = "WHERE grantee_kind = ? AND grantee = ? AND privilege = ? AND object_kind = ? AND catalog_name = ? AND schema_name = ? AND table_name = ?";

    private static void bindKey(PreparedStatement statement, Row row)
            throws SQLException
    {
        statement.setString(1, row.granteeKind());
        statement.setString(2, row.grantee());
        statement.setString(3, row.privilege());
        statement.setString(4, row.objectKind());
        statement.setString(5, row.catalog());
        statement.setString(6, row.schema());
        statement.setString(7, row.table());
    }

    private static Row row(ResultSet rows)
            throws SQLException
    {
        return new Row(rows.getString(1), rows.getString(2), rows.getString(3), rows.getString(4), rows.getString(5), rows.getString(6), rows.getString(7),
                rows.getBoolean(8), rows.getString(9), rows.getTimestamp(10).toInstant());
    }

    private static boolean exists(Connection connection, String sql, String... values)
            throws SQLException
    {
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                select.setString(i + 1, values[i]);
            }
            try (ResultSet rows = select.executeQuery()) {
                return rows.next();
            }
        }
    }

    private static Set<String> strings(Connection connection, String sql, String... values)
            throws SQLException
    {
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                select.setString(i + 1, values[i]);
            }
            Set<String> result = new TreeSet<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    result.add(rows.getString(1));
                }
            }
            return result;
        }
    }

    private static int update(Connection connection, String sql, String... values)
            throws SQLException
    {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setString(i + 1, values[i]);
            }
            return statement.executeUpdate();
        }
    }
}
