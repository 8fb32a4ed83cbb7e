-- Runtime catalogs (CREATE CATALOG), the entries connectors keep (Kafka table definitions, ...),
-- and the server's users with their password hashes.
CREATE TABLE ontul_catalogs (
    name VARCHAR(255) NOT NULL PRIMARY KEY,
    connector_name VARCHAR(255) NOT NULL,
    properties VARCHAR(1000000) NOT NULL,
    created_by VARCHAR(255) NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE ontul_connector_entries (
    catalog_name VARCHAR(255) NOT NULL,
    kind VARCHAR(255) NOT NULL,
    entry_key VARCHAR(1000) NOT NULL,
    entry_value VARCHAR(1000000) NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (catalog_name, kind, entry_key)
);

CREATE TABLE ontul_users (
    name VARCHAR(255) NOT NULL PRIMARY KEY,
    password_hash VARCHAR(1000) NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
