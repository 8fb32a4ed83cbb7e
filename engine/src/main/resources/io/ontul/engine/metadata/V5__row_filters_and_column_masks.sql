-- Row filters and column masks: a SQL expression over a table's columns, for a user or a role,
-- that the planner applies wherever the table is read. column_name is '' for a row filter.
CREATE TABLE ontul_policies (
    kind VARCHAR(16) NOT NULL,
    name VARCHAR(255) NOT NULL,
    catalog_name VARCHAR(255) NOT NULL,
    schema_name VARCHAR(255) NOT NULL,
    table_name VARCHAR(255) NOT NULL,
    column_name VARCHAR(255) NOT NULL,
    grantee_kind VARCHAR(8) NOT NULL,
    grantee VARCHAR(255) NOT NULL,
    expression VARCHAR(100000) NOT NULL,
    created_by VARCHAR(255) NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (kind, catalog_name, schema_name, table_name, name)
);
