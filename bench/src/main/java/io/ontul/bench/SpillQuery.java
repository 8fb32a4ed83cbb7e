package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The queries of {@link SpillBenchmark}, on unqualified {@code lineitem} and {@code orders}, with
 * the slowdown under the memory limit each should stay within.
 *
 * @param maxSlowdown goal for (time under the limit) / (time without limit)
 */
public record SpillQuery(String name, String description, String sql, double maxSlowdown)
{
    private static final Map<String, SpillQuery> QUERIES = Map.of(
            "aggregate", new SpillQuery("aggregate", "hash aggregation, about one group per lineitem row",
                    "SELECT l_orderkey, l_partkey, SUM(l_quantity), COUNT(*) FROM lineitem GROUP BY l_orderkey, l_partkey", 1.5),
            // Ontul's planner builds the smaller input, so lineitem JOIN orders builds orders; a
            // self-join on lineitem's key gives the build side lineitem's row count
            "join", new SpillQuery("join", "hash join with lineitem's rows on the build side (self-join on the key)",
                    "SELECT l1.l_returnflag, SUM(l2.l_extendedprice) FROM lineitem l1 JOIN lineitem l2 ON l1.l_orderkey = l2.l_orderkey AND l1.l_linenumber = l2.l_linenumber GROUP BY l1.l_returnflag", 1.5),
            "orders-join", new SpillQuery("orders-join", "hash join lineitem ⋈ orders (orders on the build side)",
                    "SELECT o_orderpriority, SUM(l_extendedprice) FROM lineitem JOIN orders ON l_orderkey = o_orderkey GROUP BY o_orderpriority", 1.5),
            "sort", new SpillQuery("sort", "sort of every lineitem row by a VARCHAR",
                    "SELECT * FROM lineitem ORDER BY l_comment", 2.0),
            // three window partitions of 1.5 to 3 M rows: under the limit each is sorted (spilling) and streamed
            "window", new SpillQuery("window", "window functions over three large window partitions (RANK and a running SUM per return flag by ship date)",
                    "SELECT l_returnflag, l_shipdate, RANK() OVER w, SUM(l_quantity) OVER w FROM lineitem WINDOW w AS (PARTITION BY l_returnflag ORDER BY l_shipdate)", 2.0),
            // the same three window partitions, each row given its partition's total: under the limit the rows wait on disk for the partition's end
            "window-total", new SpillQuery("window-total", "a window aggregate over whole window partitions (each row with its return flag's total quantity)",
                    "SELECT l_returnflag, l_quantity, SUM(l_quantity) OVER (PARTITION BY l_returnflag) FROM lineitem", 2.0));

    /** Every query, in the order the benchmark runs them by default. */
    public static final List<String> NAMES = List.of("aggregate", "join", "orders-join", "sort", "window", "window-total");

    public SpillQuery
    {
        requireNonNull(name, "name is null");
        requireNonNull(description, "description is null");
        requireNonNull(sql, "sql is null");
    }

    public static Optional<SpillQuery> named(String name)
    {
        return Optional.ofNullable(QUERIES.get(name));
    }
}
