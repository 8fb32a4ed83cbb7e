package io.ontul.engine.metadata;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Brings the metadata store's schema to the version this server needs. Migrations are SQL
 * scripts next to this class, {@code V<n>__<description>.sql}, applied in order, each in its own
 * transaction, and recorded in {@code ontul_schema_version}; a script never changes once
 * released: a change is a new script. The SQL is the subset H2 and PostgreSQL share.
 */
final class SchemaMigrations
{
    /** Every migration, oldest first; the position + 1 is its version. */
    static final List<String> SCRIPTS = List.of(
            "V1__catalogs_users_connector_entries.sql",
            "V2__streaming_jobs.sql",
            "V3__user_ids.sql",
            "V4__roles_and_grants.sql",
            "V5__row_filters_and_column_masks.sql",
            "V6__views.sql");

    private final MetadataStore store;

    SchemaMigrations(MetadataStore store)
    {
        this.store = requireNonNull(store, "store is null");
    }

    /** Applies the missing migrations; returns the schema version now. */
    int migrate()
    {
        store.inTransaction(connection -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE IF NOT EXISTS ontul_schema_version ("
                        + "version INTEGER NOT NULL PRIMARY KEY, description VARCHAR(255) NOT NULL, applied_at TIMESTAMP NOT NULL)");
            }
            return null;
        });
        int current = currentVersion();
        if (current > SCRIPTS.size()) {
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, "The metadata store " + store.location() + " has schema version " + current
                    + ", newer than this server knows (" + SCRIPTS.size() + "): upgrade the server");
        }
        for (int version = current + 1; version <= SCRIPTS.size(); version++) {
            try {
                apply(version, SCRIPTS.get(version - 1));
            }
            catch (OntulException e) {
                // another server sharing the store may have applied it meanwhile: then carry on
                if (currentVersion() < version) {
                    throw e;
                }
            }
        }
        return SCRIPTS.size();
    }

    int currentVersion()
    {
        return store.inTransaction(connection -> {
            try (Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("SELECT MAX(version) FROM ontul_schema_version")) {
                rows.next();
                return rows.getInt(1);
            }
        });
    }

    private void apply(int version, String script)
    {
        List<String> statements = statements(script);
        store.inTransaction(connection -> {
            try (Statement statement = connection.createStatement()) {
                for (String sql : statements) {
                    statement.execute(sql);
                }
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO ontul_schema_version (version, description, applied_at) VALUES (?, ?, ?)")) {
                insert.setInt(1, version);
                insert.setString(2, script);
                insert.setTimestamp(3, Timestamp.from(Instant.now()));
                insert.executeUpdate();
            }
            return null;
        });
    }

    /** The script's statements: split on semicolons at line ends, comment lines dropped. */
    static List<String> statements(String script)
    {
        String text;
        try (InputStream in = SchemaMigrations.class.getResourceAsStream(script)) {
            if (in == null) {
                throw OntulException.internal("migration script " + script + " is missing", null);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.strip().startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (line.strip().endsWith(";")) {
                String sql = current.toString().strip();
                statements.add(sql.substring(0, sql.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            statements.add(current.toString().strip());
        }
        return statements;
    }
}
