package io.ontul.engine.testing;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The 99 TPC-DS queries (103 texts: templates 14, 23, 24 and 39 have two parts, {@code q14a} and
 * {@code q14b}) from the classpath folder {@value #FOLDER}, one file per query, tables unqualified.
 */
public final class TpcdsQueries
{
    public static final String FOLDER = "tpcds/queries/";
    private static final Set<Integer> TWO_PARTS = Set.of(14, 23, 24, 39);

    private TpcdsQueries() {}

    /** Every query name in order: q01 ... q14a, q14b, ... q99. */
    public static List<String> names()
    {
        List<String> names = new ArrayList<>();
        for (int number = 1; number <= 99; number++) {
            String name = String.format("q%02d", number);
            if (TWO_PARTS.contains(number)) {
                names.add(name + "a");
                names.add(name + "b");
            }
            else {
                names.add(name);
            }
        }
        return Collections.unmodifiableList(names);
    }

    /** Query name to query text (without the trailing semicolon), in order. */
    public static Map<String, String> load()
    {
        Map<String, String> queries = new LinkedHashMap<>();
        for (String name : names()) {
            queries.put(name, load(name));
        }
        return Collections.unmodifiableMap(queries);
    }

    /** q78's ratio: a DECIMAL quotient rounded to 2 places. */
    private static final String Q78_RATIO = "round((ss_qty*1.00)/(coalesce(ws_qty,0)+coalesce(cs_qty,0)),2)";

    /**
     * The query as DuckDB runs it: the same text, except that q90's subquery alias {@code AT} is
     * renamed (DuckDB reserves the word; SQL:2016 and Ontul do not), and q78's quotient is rounded
     * to 10 places before it is rounded to 2: DuckDB divides DECIMALs in DOUBLE, and 23 / 40 =
     * 0.575 is 0.57499999999999996 there, which round(…, 2) takes down to 0.57 where the exact
     * quotient (Ontul, PostgreSQL, Trino) rounds half up to 0.58.
     */
    public static String forDuckDb(String name, String sql)
    {
        return switch (name) {
            case "q90" -> sql.replace(") AT,", ") at_,");
            case "q78" -> replaceExactly(sql, Q78_RATIO, "round(CAST((ss_qty*1.00)/(coalesce(ws_qty,0)+coalesce(cs_qty,0)) AS DECIMAL(38,10)),2)");
            default -> sql;
        };
    }

    private static String replaceExactly(String sql, String target, String replacement)
    {
        if (!sql.contains(target)) {
            throw new IllegalStateException("The query no longer contains " + target);
        }
        return sql.replace(target, replacement);
    }

    public static String load(String name)
    {
        String resource = FOLDER + name + ".sql";
        try (InputStream input = TpcdsQueries.class.getClassLoader().getResourceAsStream(resource)) {
            if (input == null) {
                throw new IllegalArgumentException("No TPC-DS query " + name + ": classpath resource " + resource + " is missing");
            }
            String sql = new String(input.readAllBytes(), UTF_8).trim();
            return sql.endsWith(";") ? sql.substring(0, sql.length() - 1).trim() : sql;
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + resource, e);
        }
    }
}
