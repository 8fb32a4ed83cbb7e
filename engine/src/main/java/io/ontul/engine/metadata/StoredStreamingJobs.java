package io.ontul.engine.metadata;

import static java.util.Objects.requireNonNull;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.ontul.spi.OntulException;

/** The streaming jobs in the metadata store; options are kept as a JSON object. */
public final class StoredStreamingJobs
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COLUMNS = "name, job_id, definition, catalog_name, schema_name, options, state, last_error, created_by, created_at";

    private final MetadataStore store;

    StoredStreamingJobs(MetadataStore store)
    {
        this.store = requireNonNull(store, "store is null");
    }

    public List<StoredStreamingJob> list()
    {
        return store.inTransaction(connection -> {
            List<StoredStreamingJob> jobs = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS + " FROM ontul_streaming_jobs ORDER BY name");
                    ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    jobs.add(job(rows));
                }
            }
            return jobs;
        });
    }

    public Optional<StoredStreamingJob> get(String name)
    {
        return store.inTransaction(connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS + " FROM ontul_streaming_jobs WHERE name = ?")) {
                select.setString(1, name);
                try (ResultSet rows = select.executeQuery()) {
                    return rows.next() ? Optional.of(job(rows)) : Optional.empty();
                }
            }
        });
    }

    /** Records the job unless one of that name exists; returns whether it did. */
    public boolean create(StoredStreamingJob job)
    {
        return store.insertUnlessPresent(connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT 1 FROM ontul_streaming_jobs WHERE name = ?")) {
                select.setString(1, job.name());
                try (ResultSet rows = select.executeQuery()) {
                    if (rows.next()) {
                        return false;
                    }
                }
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO ontul_streaming_jobs (" + COLUMNS + ", updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                insert.setString(1, job.name());
                insert.setString(2, job.jobId());
                insert.setString(3, job.definition());
                insert.setString(4, job.catalog().orElse(null));
                insert.setString(5, job.schema().orElse(null));
                insert.setString(6, toJson(job.options()));
                insert.setString(7, job.state());
                insert.setString(8, job.lastError().orElse(null));
                insert.setString(9, job.createdBy());
                insert.setTimestamp(10, Timestamp.from(job.createdAt()));
                insert.setTimestamp(11, Timestamp.from(Instant.now()));
                insert.executeUpdate();
            }
            return true;
        });
    }

    /** Records the job's state and last error (null clears it); returns whether the job exists. */
    public boolean updateState(String name, String state, String lastError)
    {
        return store.inTransaction(connection -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE ontul_streaming_jobs SET state = ?, last_error = ?, updated_at = ? WHERE name = ?")) {
                update.setString(1, state);
                update.setString(2, lastError);
                update.setTimestamp(3, Timestamp.from(Instant.now()));
                update.setString(4, name);
                return update.executeUpdate() > 0;
            }
        });
    }

    /** Replaces the job's options; returns whether the job exists. */
    public boolean updateOptions(String name, Map<String, String> options)
    {
        return store.inTransaction(connection -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE ontul_streaming_jobs SET options = ?, updated_at = ? WHERE name = ?")) {
                update.setString(1, toJson(options));
                update.setTimestamp(2, Timestamp.from(Instant.now()));
                update.setString(3, name);
                return update.executeUpdate() > 0;
            }
        });
    }

    /** Returns whether the job existed. */
    public boolean delete(String name)
    {
        return store.inTransaction(connection -> {
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM ontul_streaming_jobs WHERE name = ?")) {
                delete.setString(1, name);
                return delete.executeUpdate() > 0;
            }
        });
    }

    private static StoredStreamingJob job(ResultSet rows)
            throws SQLException
    {
        return new StoredStreamingJob(rows.getString(1), rows.getString(2), rows.getString(3),
                Optional.ofNullable(rows.getString(4)), Optional.ofNullable(rows.getString(5)), fromJson(rows.getString(6)),
                rows.getString(7), Optional.ofNullable(rows.getString(8)), rows.getString(9), rows.getTimestamp(10).toInstant());
    }

    private static String toJson(Map<String, String> options)
    {
        try {
            return JSON.writeValueAsString(new TreeMap<>(options));
        }
        catch (JsonProcessingException e) {
            throw OntulException.internal("cannot write streaming job options as JSON", e);
        }
    }

    private static Map<String, String> fromJson(String json)
    {
        try {
            return JSON.readValue(json, new TypeReference<Map<String, String>>() {});
        }
        catch (JsonProcessingException e) {
            throw OntulException.internal("cannot read streaming job options from the metadata store", e);
        }
    }
}
