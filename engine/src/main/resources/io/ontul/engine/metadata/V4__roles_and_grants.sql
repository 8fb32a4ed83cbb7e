-- Access control: roles, who holds them, and privileges granted on catalogs, schemas and tables
-- to users or roles. Names are stored as the engine resolves them (unquoted names lower-cased);
-- a grant on a catalog has schema_name = table_name = '', on a schema table_name = ''.
CREATE TABLE ontul_roles (
    name VARCHAR(255) NOT NULL PRIMARY KEY,
    created_by VARCHAR(255) NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE ontul_role_members (
    role_name VARCHAR(255) NOT NULL,
    user_name VARCHAR(255) NOT NULL,
    granted_by VARCHAR(255) NOT NULL,
    granted_at TIMESTAMP NOT NULL,
    PRIMARY KEY (role_name, user_name)
);

CREATE TABLE ontul_privileges (
    grantee_kind VARCHAR(8) NOT NULL,
    grantee VARCHAR(255) NOT NULL,
    privilege VARCHAR(16) NOT NULL,
    object_kind VARCHAR(8) NOT NULL,
    catalog_name VARCHAR(255) NOT NULL,
    schema_name VARCHAR(255) NOT NULL,
    table_name VARCHAR(255) NOT NULL,
    grant_option BOOLEAN NOT NULL,
    granted_by VARCHAR(255) NOT NULL,
    granted_at TIMESTAMP NOT NULL,
    PRIMARY KEY (grantee_kind, grantee, privilege, object_kind, catalog_name, schema_name, table_name)
);
