package io.ontul.server.streaming;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.producer.ProducerRecord;

import io.ontul.catalog.kafka.testing.EmbeddedKafka;

/**
 * The events of the exactly-once crash tests and what they must give: 100,000 events over 8
 * Kafka partitions, up to 3 s out of order, aggregated into 10 s windows by category; the windows
 * computed here from the same events are the reference both sinks and the batch query must equal.
 */
public final class CrashTestEvents
{
    public static final int EVENTS = 100_000;
    public static final int CHUNK = 10_000;
    public static final int PARTITIONS = 8;
    public static final String TOPIC = "crash_events";
    public static final String COLUMNS = "(event_id BIGINT, category VARCHAR, amount DOUBLE, event_time TIMESTAMP(3))";
    public static final String SUMMARY_COLUMNS = "(window_start TIMESTAMP(3), window_end TIMESTAMP(3), category VARCHAR, total DOUBLE, cnt BIGINT)";
    public static final String WINDOW_QUERY = "SELECT window_start, window_end, category, sum(amount) AS total, count(*) AS cnt "
            + "FROM TABLE(TUMBLE(TABLE kafka.\"default\"." + TOPIC + ", DESCRIPTOR(event_time), INTERVAL '10' SECOND)) WHERE amount > 100 GROUP BY window_start, window_end, category";
    public static final LocalDateTime EPOCH = LocalDateTime.of(2026, 1, 1, 0, 0);
    public static final DateTimeFormatter EVENT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS");


    private CrashTestEvents() {}

    public static long count(Statement statement, String table)
    {
        try (ResultSet result = statement.executeQuery("SELECT count(*) FROM " + table)) {
            result.next();
            return result.getLong(1);
        }
        catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** The rows of {@code sql} in PostgreSQL itself, as {@link #rows(Statement, String)} reads them from Ontul. */
    public static List<List<Object>> rows(io.ontul.catalog.jdbc.testing.TestingPostgres postgres, String sql)
            throws SQLException
    {
        try (java.sql.Connection connection = postgres.connect(); Statement statement = connection.createStatement()) {
            return rows(statement, sql);
        }
    }

    public static List<List<Object>> rows(Statement statement, String sql)
            throws SQLException
    {
        List<List<Object>> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                rows.add(List.of(result.getTimestamp(1).toLocalDateTime(), result.getTimestamp(2).toLocalDateTime(), result.getString(3), result.getDouble(4), result.getLong(5)));
            }
        }
        return rows;
    }

    private static double amount(int i)
    {
        return (i * 37 % 200) + 0.5;
    }

    /** Event time of event i: 10 ms apart, up to 3 s out of order (the table's delay is 5 s). */
    private static long eventMillis(int i)
    {
        return i * 10L - (i * 7919L % 3000);
    }

    public static void produce(EmbeddedKafka kafka, int from, int count)
    {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            records.add(new ProducerRecord<>(TOPIC, i % PARTITIONS, null, event(i, amount(i), eventMillis(i))));
        }
        kafka.produce(records);
    }

    public static String event(long id, double amount, long millis)
    {
        return "{\"event_id\": %d, \"category\": \"c%d\", \"amount\": %s, \"event_time\": \"%s\"}"
                .formatted(id, Math.floorMod(id, 10), amount, EVENT_TIME.format(EPOCH.plus(Duration.ofMillis(millis))));
    }

    /** The windows of all events, computed here: (window_start, window_end, category, total, cnt) by start and category. */
    public static List<List<Object>> windowsComputedHere()
    {
        Map<List<Object>, double[]> windows = new TreeMap<>(Comparator.comparing((List<Object> key) -> (Long) key.get(0)).thenComparing(key -> (String) key.get(1)));
        for (int i = 0; i < EVENTS; i++) {
            if (amount(i) > 100) {
                double[] totals = windows.computeIfAbsent(List.of(Math.floorDiv(eventMillis(i), 10_000) * 10_000, "c" + i % 10), key -> new double[2]);
                totals[0] += amount(i);
                totals[1]++;
            }
        }
        List<List<Object>> rows = new ArrayList<>();
        windows.forEach((key, totals) -> {
            LocalDateTime start = EPOCH.plus(Duration.ofMillis((Long) key.get(0)));
            rows.add(List.of(start, start.plusSeconds(10), key.get(1), totals[0], (long) totals[1]));
        });
        return rows;
    }

    public static void await(BooleanSupplier condition)
    {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 3 minutes");
            }
            sleep(200);
        }
    }

    public static void sleep(long millis)
    {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** One event per partition far past every window: the watermark then closes them all. */
    public static void produceClosingEvents(EmbeddedKafka kafka)
    {
        List<ProducerRecord<String, String>> closing = new ArrayList<>();
        for (int partition = 0; partition < PARTITIONS; partition++) {
            closing.add(new ProducerRecord<>(TOPIC, partition, null, event(-1 - partition, 0.5, 100_000_000)));
        }
        kafka.produce(closing);
    }

    /** The Kafka table of the events, in catalog {@code kafka}. */
    public static String createKafkaTable()
    {
        return "CREATE TABLE kafka.\"default\"." + TOPIC + " " + COLUMNS + " WITH ('topic' = '" + TOPIC + "', 'format' = 'json', "
                + "'scan.startup.mode' = 'earliest-offset', 'watermark.column' = 'event_time', 'watermark.delay' = '5s')";
    }
}
