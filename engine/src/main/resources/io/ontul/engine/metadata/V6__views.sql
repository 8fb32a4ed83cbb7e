-- Views (CREATE VIEW): the statement that defines each, planned again wherever the view is read,
-- the creating session's catalog and schema for the names it leaves unqualified, the columns it
-- had when created (an Arrow schema as JSON), and its owner, whose rights it reads with.
CREATE TABLE ontul_views (
    catalog_name VARCHAR(255) NOT NULL,
    schema_name VARCHAR(255) NOT NULL,
    view_name VARCHAR(255) NOT NULL,
    definition VARCHAR(1000000) NOT NULL,
    default_catalog VARCHAR(255),
    default_schema VARCHAR(255),
    view_columns VARCHAR(1000000) NOT NULL,
    owner_name VARCHAR(255) NOT NULL,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (catalog_name, schema_name, view_name)
);
