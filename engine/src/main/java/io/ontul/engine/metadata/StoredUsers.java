package io.ontul.engine.metadata;

import static java.util.Objects.requireNonNull;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The server's users and their password hashes (never the passwords themselves). */
public final class StoredUsers
{
    private final MetadataStore store;

    StoredUsers(MetadataStore store)
    {
        this.store = requireNonNull(store, "store is null");
    }

    /** Every user with its hash, by name. */
    public Map<String, String> hashes()
    {
        return store.inTransaction(connection -> {
            Map<String, String> hashes = new TreeMap<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT name, password_hash FROM ontul_users");
                    ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    hashes.put(rows.getString(1), rows.getString(2));
                }
            }
            return hashes;
        });
    }

    public Optional<String> hash(String user)
    {
        return store.inTransaction(connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT password_hash FROM ontul_users WHERE name = ?")) {
                select.setString(1, requireNonNull(user, "user is null"));
                try (ResultSet rows = select.executeQuery()) {
                    return rows.next() ? Optional.of(rows.getString(1)) : Optional.empty();
                }
            }
        });
    }

    /**
     * The random id the user got when it was created (empty for a user created before ids
     * existed, or no such user): a user dropped and created again under the same name has another.
     */
    public Optional<String> id(String user)
    {
        return store.inTransaction(connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT user_id FROM ontul_users WHERE name = ?")) {
                select.setString(1, requireNonNull(user, "user is null"));
                try (ResultSet rows = select.executeQuery()) {
                    return rows.next() ? Optional.of(java.util.Objects.requireNonNullElse(rows.getString(1), "")) : Optional.empty();
                }
            }
        });
    }

    /** Adds the user, with a new random id, unless it exists; returns whether it did. */
    public boolean create(String user, String hash)
    {
        return store.insertUnlessPresent(connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT 1 FROM ontul_users WHERE name = ?")) {
                select.setString(1, user);
                try (ResultSet rows = select.executeQuery()) {
                    if (rows.next()) {
                        return false;
                    }
                }
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO ontul_users (name, password_hash, updated_at, user_id) VALUES (?, ?, ?, ?)")) {
                insert.setString(1, user);
                insert.setString(2, requireNonNull(hash, "hash is null"));
                insert.setTimestamp(3, Timestamp.from(Instant.now()));
                insert.setString(4, java.util.UUID.randomUUID().toString());
                insert.executeUpdate();
            }
            return true;
        });
    }

    /** Replaces the hash of an existing user; returns whether the user exists. */
    public boolean replace(String user, String hash)
    {
        return store.inTransaction(connection -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE ontul_users SET password_hash = ?, updated_at = ? WHERE name = ?")) {
                update.setString(1, requireNonNull(hash, "hash is null"));
                update.setTimestamp(2, Timestamp.from(Instant.now()));
                update.setString(3, user);
                return update.executeUpdate() > 0;
            }
        });
    }

    /** Returns whether the user existed. */
    public boolean delete(String user)
    {
        return store.inTransaction(connection -> {
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM ontul_users WHERE name = ?")) {
                delete.setString(1, user);
                return delete.executeUpdate() > 0;
            }
        });
    }
}
