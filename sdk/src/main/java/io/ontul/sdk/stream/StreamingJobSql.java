package io.ontul.sdk.stream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one translation of a {@link StreamingJobDefinition} into {@code CREATE STREAMING JOB}: the
 * Java SDK sends its text over Flight SQL, the REST API runs it for job documents (and so for the
 * Python SDK), and a user may type it; one job, one text, one planner. Options come sorted by
 * name, intervals in the largest unit that divides them, names quoted only where SQL needs it:
 * <pre>{@code
 * CREATE STREAMING JOB order_totals WITH ('checkpoint.interval' = '10s', 'parallelism' = '4')
 * AS INSERT INTO iceberg.lake.totals SELECT window_start, window_end, category, SUM(amount) AS total
 * FROM TABLE(TUMBLE(TABLE kafka."default".orders, DESCRIPTOR(event_time), INTERVAL '10' SECOND))
 * WHERE amount > 100 GROUP BY window_start, window_end, category
 * }</pre>
 * A windowed job selects {@code window_start, window_end}, its keys and its aggregates; one without
 * aggregates selects its projections, or every column.
 */
public final class StreamingJobSql
{
    private static final Pattern PLAIN = Pattern.compile("[a-z_][a-z0-9_]*");
    private static final Set<String> RESERVED = Set.of("default", "user", "table", "select", "from", "where", "group", "order", "value", "year", "window", "time");

    private StreamingJobSql() {}

    /**
     * The statement that creates the job.
     *
     * @throws IllegalArgumentException when the parts do not make a job (a window without aggregates, ...)
     */
    public static String createStatement(StreamingJobDefinition job)
    {
        StringBuilder sql = new StringBuilder("CREATE STREAMING JOB ").append(identifier(job.name()));
        if (!job.options().isEmpty()) {
            sql.append(" WITH (");
            String separator = "";
            for (Map.Entry<String, String> option : job.options().entrySet()) {
                sql.append(separator).append(literal(option.getKey())).append(" = ").append(literal(option.getValue()));
                separator = ", ";
            }
            sql.append(')');
        }
        return sql.append(" AS INSERT INTO ").append(qualifiedName("sink table", job.sink().table())).append(' ').append(select(job)).toString();
    }

    private static String select(StreamingJobDefinition job)
    {
        String source = qualifiedName("source table", job.source().table());
        List<String> keys = new ArrayList<>();
        String from = source;
        if (job.window().isPresent()) {
            from = "TABLE(" + windowFunction(job.window().get(), source, job.groupBy()) + ")";
            keys.add("window_start");
            keys.add("window_end");
        }
        keys.addAll(job.groupBy());
        StringBuilder select = new StringBuilder("SELECT ");
        if (job.aggregates().isEmpty()) {
            if (job.window().isPresent() || !job.groupBy().isEmpty()) {
                throw new IllegalArgumentException("a window or GROUP BY needs the aggregates to compute (agg)");
            }
            select.append(job.projections().isEmpty() ? "*" : String.join(", ", job.projections()));
        }
        else {
            if (!job.projections().isEmpty()) {
                throw new IllegalArgumentException("select and agg do not go together: an aggregating job selects its window, GROUP BY columns and aggregates");
            }
            List<String> columns = new ArrayList<>(keys);
            columns.addAll(job.aggregates());
            select.append(String.join(", ", columns));
        }
        select.append(" FROM ").append(from);
        if (!job.filters().isEmpty()) {
            select.append(" WHERE ").append(job.filters().size() == 1 ? job.filters().get(0) : "(" + String.join(") AND (", job.filters()) + ")");
        }
        if (!job.aggregates().isEmpty() && !keys.isEmpty()) {
            select.append(" GROUP BY ").append(String.join(", ", keys));
        }
        return select.toString();
    }

    private static String windowFunction(StreamingJobDefinition.Window window, String source, List<String> groupBy)
    {
        String table = "TABLE " + source + ", DESCRIPTOR(" + window.timeColumn() + ")";
        WindowSpec spec = window.spec();
        return switch (spec.kind()) {
            case TUMBLING -> "TUMBLE(" + table + ", " + interval(spec.size()) + ")";
            case SLIDING -> "HOP(" + table + ", " + interval(spec.slide().orElseThrow()) + ", " + interval(spec.size()) + ")";
            case SESSION -> "SESSION(" + table + ", " + (groupBy.isEmpty() ? "" : "DESCRIPTOR(" + String.join(", ", groupBy) + "), ") + interval(spec.size()) + ")";
        };
    }

    /** {@code INTERVAL '10' SECOND}: the largest unit that divides the duration. */
    static String interval(Duration duration)
    {
        long millis = duration.toMillis();
        record Unit(String name, long millis) {}
        for (Unit unit : List.of(new Unit("DAY", 86_400_000L), new Unit("HOUR", 3_600_000L), new Unit("MINUTE", 60_000L), new Unit("SECOND", 1000L))) {
            if (millis % unit.millis() == 0) {
                return "INTERVAL '" + millis / unit.millis() + "' " + unit.name();
            }
        }
        return "INTERVAL '" + millis + "' MILLISECOND";
    }

    /** A duration as the option text of streaming jobs: {@code 10s}, {@code 250ms}, {@code 5m}. */
    public static String durationOption(Duration duration)
    {
        long millis = duration.toMillis();
        if (millis % 60_000 == 0 && millis > 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1000 == 0) {
            return millis / 1000 + "s";
        }
        return millis + "ms";
    }

    /** A name as SQL writes it: plain lower-case names as they are, anything else (and reserved words) quoted. */
    public static String identifier(String name)
    {
        if (PLAIN.matcher(name).matches() && !RESERVED.contains(name)) {
            return name;
        }
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /**
     * {@code catalog.schema.table} with each part written as {@link #identifier} writes it.
     *
     * @throws IllegalArgumentException unless the text has three non-empty parts
     */
    public static String qualifiedName(String what, String text)
    {
        if (text == null) {
            throw new IllegalArgumentException("The " + what + " is missing: name it as catalog.schema.table");
        }
        String[] parts = text.split("\\.", -1);
        if (parts.length != 3 || List.of(parts).stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("The " + what + " must be named as catalog.schema.table, not '" + text + "'");
        }
        return identifier(parts[0]) + "." + identifier(parts[1]) + "." + identifier(parts[2]);
    }

    static String literal(String text)
    {
        return "'" + text.replace("'", "''") + "'";
    }
}
