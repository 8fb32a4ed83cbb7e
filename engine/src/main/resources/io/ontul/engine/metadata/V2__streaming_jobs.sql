-- Streaming jobs (CREATE STREAMING JOB): the statement that defines each, its options, and the
-- state it should be in after a restart. job_id names the job's checkpoints and its commits in
-- sinks; it is new for every job created, so a dropped and recreated job starts afresh.
CREATE TABLE ontul_streaming_jobs (
    name VARCHAR(255) NOT NULL PRIMARY KEY,
    job_id VARCHAR(255) NOT NULL,
    definition VARCHAR(1000000) NOT NULL,
    catalog_name VARCHAR(255),
    schema_name VARCHAR(255),
    options VARCHAR(100000) NOT NULL,
    state VARCHAR(32) NOT NULL,
    last_error VARCHAR(100000),
    created_by VARCHAR(255) NOT NULL,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
