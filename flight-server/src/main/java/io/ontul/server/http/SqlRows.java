package io.ontul.server.http;

import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;

/**
 * Runs a statement in a caller's session and returns its rows as JSON objects (column name to
 * value): how the REST API reads what SQL already says (SHOW STREAMING JOBS, SHOW CATALOGS,
 * system.runtime.nodes), with SQL's permission checks and messages. Small results only.
 */
final class SqlRows
{
    /** Rows read at most: listings, not data. */
    private static final int MAX_ROWS = 100_000;

    private SqlRows() {}

    static List<Map<String, Object>> run(Session session, String sql)
    {
        List<Map<String, Object>> rows = new ArrayList<>();
        try (QueryResult result = session.execute(sql)) {
            for (VectorSchemaRoot batch = result.nextBatch(); batch != null; batch = result.nextBatch()) {
                List<FieldVector> vectors = batch.getFieldVectors();
                for (int row = 0; row < batch.getRowCount() && rows.size() < MAX_ROWS; row++) {
                    Map<String, Object> values = new LinkedHashMap<>();
                    for (FieldVector vector : vectors) {
                        values.put(vector.getName(), json(vector.getObject(row)));
                    }
                    rows.add(values);
                }
            }
        }
        return rows;
    }

    /** Runs a statement that answers with nothing worth reading (STOP, START, DROP). */
    static void execute(Session session, String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            while (result.nextBatch() != null) {
                // drain
            }
        }
    }

    private static Object json(Object value)
    {
        if (value == null || value instanceof Number || value instanceof Boolean) {
            return value;
        }
        if (value instanceof byte[] bytes) {
            return Base64.getEncoder().encodeToString(bytes);
        }
        if (value instanceof TemporalAccessor || value instanceof CharSequence) {
            return value.toString();
        }
        if (value instanceof List<?> list) {
            return list.stream().map(SqlRows::json).toList();
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> converted = new LinkedHashMap<>();
            map.forEach((key, item) -> converted.put(String.valueOf(key), json(item)));
            return converted;
        }
        return value.toString();
    }

    /** {@code name} as SQL writes it: plain lower-case names as they are, anything else quoted (the SDK's rule, so REST and SDK write the same text). */
    static String identifier(String name)
    {
        return io.ontul.sdk.stream.StreamingJobSql.identifier(name);
    }
}
