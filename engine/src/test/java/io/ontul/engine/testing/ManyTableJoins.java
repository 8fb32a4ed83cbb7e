package io.ontul.engine.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Tables and queries for joins of many tables, in the shape public SQL conformance suites use:
 * tables {@code t1 ... tN}, each {@code tN(aN INTEGER PRIMARY KEY, bN INTEGER, cN INTEGER, xN
 * VARCHAR)} with {@code bN} a foreign key into any table's {@code a} and {@code cN} a small number;
 * column names are unique across the tables, so queries list the tables and never qualify a
 * column. The same statements load Ontul and DuckDB.
 */
public final class ManyTableJoins
{
    public static final int TABLES = 64;
    public static final int ROWS = 40;

    private ManyTableJoins() {}

    /** CREATE TABLE and INSERT statements for {@code t1 ... t}{@value #TABLES} named with {@code prefix} (e.g. "" or "memory.default."), the same rows for the same seed. */
    public static List<String> tableStatements(String prefix, long seed)
    {
        Random random = new Random(seed);
        List<String> statements = new ArrayList<>();
        for (int table = 1; table <= TABLES; table++) {
            statements.add("CREATE TABLE %st%d (a%d INTEGER PRIMARY KEY, b%d INTEGER, c%d INTEGER, x%d VARCHAR)".formatted(prefix, table, table, table, table, table));
            StringBuilder insert = new StringBuilder("INSERT INTO %st%d VALUES ".formatted(prefix, table));
            for (int row = 1; row <= ROWS; row++) {
                insert.append(row > 1 ? ", " : "").append("(%d, %d, %d, 't%d r%d')".formatted(row, 1 + random.nextInt(ROWS), random.nextInt(5), table, row));
            }
            statements.add(insert.toString());
        }
        return statements;
    }

    /**
     * A chain over the first {@code tables} tables in random order, each looked up by the key of
     * the one before it or the other way round, with a filter on the last and {@code extra}
     * appended; the conditions and the FROM list are shuffled.
     */
    public static String chain(String prefix, int tables, Random random, String extra)
    {
        List<Integer> order = shuffled(tables, random);
        List<String> conditions = new ArrayList<>();
        for (int i = 1; i < tables; i++) {
            int left = order.get(i - 1);
            int right = order.get(i);
            conditions.add(random.nextBoolean() ? "a%d = b%d".formatted(left, right) : "b%d = a%d".formatted(right, left));
        }
        conditions.add("c%d IN (1, 2)".formatted(order.get(tables - 1)));
        Collections.shuffle(conditions, random);
        List<String> columns = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            columns.add("x" + order.get(random.nextInt(tables)));
        }
        return "SELECT %s FROM %s WHERE %s%s".formatted(String.join(", ", columns), from(prefix, order, random), String.join(" AND ", conditions), extra);
    }

    /** The numbers 1 ... tables in random order. */
    public static List<Integer> shuffled(int tables, Random random)
    {
        List<Integer> order = new ArrayList<>();
        for (int i = 1; i <= tables; i++) {
            order.add(i);
        }
        Collections.shuffle(order, random);
        return order;
    }

    /** A FROM list of the tables, shuffled. */
    public static String from(String prefix, List<Integer> tables, Random random)
    {
        List<Integer> from = new ArrayList<>(tables);
        Collections.shuffle(from, random);
        return String.join(", ", from.stream().map(table -> prefix + "t" + table).toList());
    }
}
