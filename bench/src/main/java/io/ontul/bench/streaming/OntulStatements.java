package io.ontul.bench.streaming;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.testing.ResultRows;

/** Statements of the Ontul child JVMs on one session, and the columns of SHOW STREAMING JOBS they read. */
final class OntulStatements
{
    static final String EVENT_COLUMNS = "(event_id BIGINT, category VARCHAR, amount DOUBLE, event_time TIMESTAMP(3))";
    static final String WINDOW_COLUMNS = "(window_start TIMESTAMP(3), window_end TIMESTAMP(3), category VARCHAR, total DOUBLE, cnt BIGINT)";
    /** The pipeline: 10 s tumbling SUM/COUNT by category over the Kafka table {@code %s}. */
    static final String WINDOW_QUERY = "SELECT window_start, window_end, category, SUM(amount) AS total, COUNT(*) AS cnt "
            + "FROM TABLE(TUMBLE(TABLE %s, DESCRIPTOR(event_time), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, category";

    static final String STATE = "state";
    static final String RECORDS_IN = "records_in";
    static final String RECORDS_LATE = "records_late";
    static final String RECORDS_OUT = "records_out";
    static final String LAST_CHECKPOINT_ID = "last_checkpoint_id";
    static final String LAST_ERROR = "last_error";

    private final Session session;

    OntulStatements(Session session)
    {
        this.session = requireNonNull(session, "session is null");
    }

    void run(String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            ResultRows.drain(result);
        }
    }

    List<List<Object>> query(String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            return ResultRows.drain(result);
        }
    }

    /** The SHOW STREAMING JOBS row of job {@code name}, by column name (the columns grow; their names stay). */
    Map<String, Object> job(String name)
    {
        try (QueryResult result = session.execute("SHOW STREAMING JOBS")) {
            List<String> columns = result.schema().getFields().stream().map(Field::getName).toList();
            for (List<Object> row : ResultRows.drain(result)) {
                if (name.equals(row.get(columns.indexOf("name")))) {
                    Map<String, Object> job = new HashMap<>();
                    for (int column = 0; column < columns.size(); column++) {
                        job.put(columns.get(column), row.get(column));
                    }
                    return job;
                }
            }
        }
        throw new IllegalStateException("Streaming job " + name + " is not listed");
    }

    /** Waits until job {@code job} has read {@code records} records; throws when it failed or at {@code deadline} (System.nanoTime). */
    void awaitRecords(String job, long records, long deadline)
            throws InterruptedException
    {
        while (true) {
            Map<String, Object> row = job(job);
            if ("FAILED".equals(row.get(STATE))) {
                throw new IllegalStateException("Streaming job " + job + " failed: " + row.get(LAST_ERROR));
            }
            long in = asLong(row.get(RECORDS_IN));
            if (in >= records) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Streaming job " + job + " read " + in + " of " + records + " records before the time-out");
            }
            Thread.sleep(50);
        }
    }

    static String kafkaTable(String name, String topic)
    {
        return "CREATE TABLE kafka.\"default\"." + name + " " + EVENT_COLUMNS + " WITH ('topic' = '" + topic + "', 'format' = 'json', "
                + "'scan.startup.mode' = 'earliest-offset', 'watermark.column' = 'event_time', 'watermark.delay' = '1s')";
    }

    static long asLong(Object value)
    {
        return value == null ? 0 : ((Number) value).longValue();
    }

    static double asDouble(Object value)
    {
        return value == null ? 0 : ((Number) value).doubleValue();
    }
}
