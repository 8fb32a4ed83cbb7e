package io.ontul.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.catalog.RecordingConnectorFactory;
import io.ontul.engine.testing.ResultRows;
import io.ontul.spi.AggregateFunction.Kind;
import io.ontul.spi.AggregateFunction;
import io.ontul.spi.Aggregation;
import io.ontul.spi.ColumnPredicate.Operator;
import io.ontul.spi.ColumnPredicate;
import io.ontul.spi.ScanSpec;

/**
 * What the engine offers a connector that can aggregate ({@code pushed}: the recording connector
 * with {@code aggregation = true}) and what it keeps for itself; every result is compared with the
 * same query over a connector that cannot ({@code plain}), which the engine aggregates.
 */
class TestAggregationPushdown
{
    private static final ArrowType BIGINT = new ArrowType.Int(64, true);
    private static final ArrowType DOUBLE = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);

    private static Engine engine;
    private static Session session;

    @BeforeAll
    static void setUp()
    {
        engine = Engine.create(new EngineConfig(Map.of(), Map.of(
                "pushed", Map.of("connector.name", "recording", "row_count", "20", "aggregation", "true"),
                "plain", Map.of("connector.name", "recording", "row_count", "20"))));
        session = engine.createSession("test");
    }

    @AfterAll
    static void tearDown()
    {
        engine.close();
    }

    @Test
    void globalAggregatesGoToTheConnector()
    {
        ScanSpec scan = pushedScan("SELECT count(*), count(_row), sum(n), min(twice), max(n), avg(twice) FROM %s");
        assertThat(scan.aggregation()).contains(new Aggregation(List.of(), List.of(
                new AggregateFunction(Kind.COUNT_ALL, Optional.empty(), BIGINT),
                new AggregateFunction(Kind.COUNT, Optional.of("_row"), BIGINT),
                new AggregateFunction(Kind.SUM, Optional.of("n"), BIGINT),
                new AggregateFunction(Kind.MIN, Optional.of("twice"), BIGINT),
                new AggregateFunction(Kind.MAX, Optional.of("n"), BIGINT),
                new AggregateFunction(Kind.AVG, Optional.of("twice"), DOUBLE))));
        assertThat(scan.columns()).containsExactly("_row", "n", "twice");
        assertThat(scan.predicates()).isEmpty();
        assertThat(scan.limit()).isEmpty();
        assertThat(explain("SELECT count(*), sum(n) FROM pushed.\"default\".numbers"))
                .endsWith("- Scan pushed.default.numbers columns=[n] aggregation=[COUNT(*), SUM(n)] [vectorized]");
    }

    @Test
    void groupsAndFiltersGoAlong()
    {
        // the select list's order differs from the aggregate's (keys in column order, then calls)
        ScanSpec scan = pushedScan("SELECT max(_row), twice, count(*), n FROM %s WHERE (n > 3 AND n <= 15) AND (twice IN (8, 10, 12, 30) OR _row = 14) GROUP BY n, twice");
        assertThat(scan.aggregation().orElseThrow().groupingColumns()).containsExactly("n", "twice");
        assertThat(scan.aggregation().orElseThrow().toString()).isEqualTo("GROUP BY n, twice; MAX(_row), COUNT(*)");
        assertThat(scan.predicates()).containsExactlyInAnyOrder(
                new ColumnPredicate("n", Operator.GREATER_THAN, List.of(3L)),
                new ColumnPredicate("n", Operator.LESS_THAN_OR_EQUAL, List.of(15L)));
        assertThat(scan.disjunctions()).hasSize(1);

        pushedScan("SELECT twice FROM %s GROUP BY twice HAVING count(*) > 0");
        pushedScan("SELECT DISTINCT n, twice FROM %s WHERE n < 5");
        // COUNT(DISTINCT) becomes a GROUP BY under a COUNT: the GROUP BY goes down
        assertThat(pushedScan("SELECT count(DISTINCT twice) FROM %s WHERE n <> 3").aggregation().orElseThrow().toString()).isEqualTo("GROUP BY twice");
    }

    @Test
    void emptyInputGivesOneGlobalRowAndNoGroups()
    {
        assertThat(rows("SELECT count(*), count(n), sum(n), min(n), avg(n) FROM pushed.\"default\".numbers WHERE n > 100"))
                .containsExactly(java.util.Arrays.asList(0L, 0L, null, null, null));
        pushedScan("SELECT count(*), count(n), sum(n), min(n), avg(n) FROM %s WHERE n > 100");
        assertThat(rows("SELECT n, count(*) FROM pushed.\"default\".numbers WHERE n > 100 GROUP BY n")).isEmpty();
    }

    @Test
    void aggregatesTheConnectorCannotComputeExactlyStayInTheEngine()
    {
        // a filter that does not go down in full
        notOffered("SELECT count(*) FROM %s WHERE n + twice > 5");
        notOffered("SELECT sum(n) FROM %s WHERE n > 2 AND mod(twice, 3) = 0");
        // FILTER, expressions as arguments or keys, grouping sets, other functions
        notOffered("SELECT count(*) FILTER (WHERE n > 2) FROM %s");
        notOffered("SELECT sum(n + 1) FROM %s");
        notOffered("SELECT mod(n, 2), count(*) FROM %s GROUP BY mod(n, 2)");
        notOffered("SELECT n, twice, count(*) FROM %s GROUP BY GROUPING SETS ((n), (twice))");
        notOffered("SELECT n, count(*) FROM %s GROUP BY ROLLUP (n)");
        notOffered("SELECT n, count(*), any_value(twice) FROM %s GROUP BY n");
    }

    @Test
    void aConnectorThatDeclinesIsReadAsBefore()
    {
        RecordingConnectorFactory.SCANS.clear();
        RecordingConnectorFactory.AGGREGATIONS_OFFERED.clear();
        assertThat(rows("SELECT twice, sum(n) FROM plain.\"default\".numbers WHERE n < 4 GROUP BY twice ORDER BY twice"))
                .containsExactly(List.of(2L, 1L), List.of(4L, 2L), List.of(6L, 3L));
        assertThat(RecordingConnectorFactory.AGGREGATIONS_OFFERED).singleElement()
                .satisfies(offered -> assertThat(offered.aggregation().orElseThrow().toString()).isEqualTo("GROUP BY twice; SUM(n)"));
        assertThat(RecordingConnectorFactory.SCANS).singleElement().satisfies(scan -> {
            assertThat(scan.aggregation()).isEmpty();
            assertThat(scan.columns()).containsExactly("n", "twice");
        });
    }

    @Test
    void countStarReadsOneColumn()
    {
        RecordingConnectorFactory.SCANS.clear();
        assertThat(rows("SELECT count(*) FROM plain.\"default\".numbers")).containsExactly(List.of(20L));
        assertThat(RecordingConnectorFactory.SCANS).singleElement().satisfies(scan -> assertThat(scan.columns()).containsExactly("n"));
        assertThat(explain("SELECT count(*) FROM tpch.tiny.lineitem")).contains("Scan tpch.tiny.lineitem columns=[l_orderkey]");
        assertThat(explain("SELECT l_returnflag, count(*) FROM tpch.tiny.lineitem WHERE l_quantity > 10 GROUP BY l_returnflag"))
                .contains("Scan tpch.tiny.lineitem columns=[l_quantity, l_returnflag]");
        assertThat(rows("SELECT count(*) FROM tpch.tiny.lineitem")).containsExactly(List.of(60175L));
    }

    /** Runs the query ({@code %s}: the table) on both catalogs, checks the results agree, and returns the one scan of the pushed run, which carries an aggregation. */
    private static ScanSpec pushedScan(String sql)
    {
        RecordingConnectorFactory.SCANS.clear();
        List<List<Object>> pushed = rows(sql.formatted("pushed.\"default\".numbers"));
        assertThat(RecordingConnectorFactory.SCANS).hasSize(1);
        ScanSpec scan = RecordingConnectorFactory.SCANS.get(0);
        assertThat(scan.aggregation()).as("aggregation of %s", sql).isPresent();
        assertThat(sorted(pushed)).isEqualTo(sorted(rows(sql.formatted("plain.\"default\".numbers"))));
        return scan;
    }

    private static void notOffered(String sql)
    {
        RecordingConnectorFactory.SCANS.clear();
        RecordingConnectorFactory.AGGREGATIONS_OFFERED.clear();
        List<List<Object>> pushed = rows(sql.formatted("pushed.\"default\".numbers"));
        assertThat(RecordingConnectorFactory.AGGREGATIONS_OFFERED).as(sql).isEmpty();
        assertThat(RecordingConnectorFactory.SCANS).as(sql).allSatisfy(scan -> assertThat(scan.aggregation()).isEmpty());
        assertThat(sorted(pushed)).isEqualTo(sorted(rows(sql.formatted("plain.\"default\".numbers"))));
    }

    private static String explain(String sql)
    {
        StringBuilder plan = new StringBuilder();
        for (List<Object> row : rows("EXPLAIN " + sql)) {
            plan.append(row.get(0)).append('\n');
        }
        return plan.toString().strip();
    }

    private static List<List<Object>> rows(String sql)
    {
        try (QueryResult result = session.execute(sql)) {
            return ResultRows.drain(result);
        }
    }

    private static List<List<Object>> sorted(List<List<Object>> rows)
    {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Object::toString));
        return copy;
    }
}
