package io.ontul.catalog.jdbc;

import static io.ontul.catalog.jdbc.JdbcTesting.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ontul.catalog.jdbc.testing.TestingPostgres;
import io.ontul.engine.api.Engine;
import io.ontul.spi.ColumnPredicate.Operator;
import io.ontul.spi.ColumnPredicate;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;

/**
 * Parallel reads of a table cut into ranges of its split column read the same rows as one read.
 */
class TestJdbcSplits
{
    private static final String SCHEMA = "splits_test";
    private static final ScanSpec ALL_COLUMNS = new ScanSpec(List.of("id", "amount", "ratio", "name"), List.of());

    private static TestingPostgres postgres;
    private static BufferAllocator allocator;
    private static Connector split;
    private static Connector single;

    @BeforeAll
    static void setUp()
    {
        postgres = TestingPostgres.shared();
        postgres.execute(
                "DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE",
                "CREATE SCHEMA " + SCHEMA,
                "CREATE TABLE splits_test.items (id bigint, amount numeric(10, 2), ratio double precision, name text)",
                "INSERT INTO splits_test.items SELECT CASE WHEN n % 1000 = 0 THEN NULL ELSE n END, n * 1.25 - 5000, n / 3.0 - 100, 'item ' || n "
                        + "FROM generate_series(1, 10000) n",
                "CREATE TABLE splits_test.empty (id integer)",
                "CREATE TABLE splits_test.few (id integer)",
                "INSERT INTO splits_test.few VALUES (5), (6), (NULL)");
        allocator = new RootAllocator();
        split = JdbcTesting.createConnector(splitProperties(), allocator);
        single = JdbcTesting.createConnector(postgres, allocator);
    }

    private static Map<String, String> splitProperties()
    {
        return JdbcTesting.connectorProperties(postgres, properties -> {
            properties.put("read.splits", "4");
            properties.put("read.split-column.splits_test.items", "id");
            properties.put("read.split-column.splits_test.empty", "id");
            properties.put("read.split-column.splits_test.few", "id");
        });
    }

    @AfterAll
    static void tearDown()
    {
        split.close();
        single.close();
        allocator.close();
    }

    @Test
    void splitReadsEqualTheSingleRead()
            throws Exception
    {
        TableHandle table = split.metadata().getTable(SCHEMA, "items").orElseThrow();
        List<Split> splits = split.splits(table, ALL_COLUMNS, 8);
        assertThat(splits.stream().map(Split::describe)).containsExactly(
                "jdbc pg.splits_test.items part 1/4 (id < 2501 or id is null)",
                "jdbc pg.splits_test.items part 2/4 (id >= 2501 and id < 5000)",
                "jdbc pg.splits_test.items part 3/4 (id >= 5000 and id < 7500)",
                "jdbc pg.splits_test.items part 4/4 (id >= 7500)");

        List<List<Object>> parallel = new ArrayList<>();
        ExecutorService executor = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<List<Object>>>> parts = new ArrayList<>();
            for (Split part : splits) {
                parts.add(executor.submit(() -> JdbcTesting.read(split, part, ALL_COLUMNS, allocator)));
            }
            for (Future<List<List<Object>>> part : parts) {
                List<List<Object>> rows = part.get();
                assertThat(rows).hasSizeBetween(2000, 3000);
                parallel.addAll(rows);
            }
        }
        finally {
            executor.shutdownNow();
        }
        List<List<Object>> whole = JdbcTesting.read(single, single.metadata().getTable(SCHEMA, "items").orElseThrow(), ALL_COLUMNS, 8, allocator);
        assertThat(whole).hasSize(10000);
        assertThat(sorted(parallel)).isEqualTo(sorted(whole));
    }

    @Test
    void rangesFollowTheFilter()
    {
        TableHandle table = split.metadata().getTable(SCHEMA, "items").orElseThrow();
        ScanSpec scan = new ScanSpec(List.of("id"), List.of(new ColumnPredicate("id", Operator.GREATER_THAN, List.of(6000L))));
        List<Split> splits = split.splits(table, scan, 8);
        assertThat(splits.get(1).describe()).isEqualTo("jdbc pg.splits_test.items part 2/4 (id >= 7001 and id < 8000)");
        List<List<Object>> rows = new ArrayList<>();
        for (Split part : splits) {
            rows.addAll(JdbcTesting.read(split, part, scan, allocator));
        }
        assertThat(rows).hasSize(3996);
    }

    @Test
    void decimalAndDoubleColumnsSplitToo()
    {
        for (String column : List.of("amount", "ratio")) {
            Map<String, String> properties = JdbcTesting.connectorProperties(postgres, changes -> {
                changes.put("read.splits", "3");
                changes.put("read.split-column.SPLITS_TEST.ITEMS", column);
            });
            try (Connector connector = JdbcTesting.createConnector(properties, allocator)) {
                TableHandle table = connector.metadata().getTable(SCHEMA, "items").orElseThrow();
                List<Split> splits = connector.splits(table, ALL_COLUMNS, 1);
                assertThat(splits).hasSize(3);
                List<List<Object>> rows = new ArrayList<>();
                for (Split part : splits) {
                    rows.addAll(JdbcTesting.read(connector, part, ALL_COLUMNS, allocator));
                }
                assertThat(rows).hasSize(10000);
                assertThat(rows.stream().map(row -> row.get(3)).distinct().count()).isEqualTo(10000);
            }
        }
        assertThat(JdbcSplitPlanner.boundaries(new ArrowType.Decimal(10, 2, 128), new BigDecimal("0.00"), new BigDecimal("1.00"), 3))
                .containsExactly(new BigDecimal("0.34"), new BigDecimal("0.67"));
        assertThat(JdbcSplitPlanner.boundaries(new ArrowType.Int(64, true), BigDecimal.valueOf(Long.MIN_VALUE), BigDecimal.valueOf(Long.MAX_VALUE), 2))
                .containsExactly(0L);
    }

    @Test
    void smallAndEmptyTablesNeedFewerSplits()
    {
        TableHandle empty = split.metadata().getTable(SCHEMA, "empty").orElseThrow();
        assertThat(split.splits(empty, new ScanSpec(List.of("id"), List.of()), 4)).hasSize(1);
        TableHandle few = split.metadata().getTable(SCHEMA, "few").orElseThrow();
        List<Split> splits = split.splits(few, new ScanSpec(List.of("id"), List.of()), 4);
        assertThat(splits).hasSize(2);
        List<Object> ids = new ArrayList<>();
        for (Split part : splits) {
            JdbcTesting.read(split, part, new ScanSpec(List.of("id"), List.of()), allocator).forEach(row -> ids.add(row.get(0)));
        }
        assertThat(ids).containsExactlyInAnyOrder(5L, 6L, null);
    }

    @Test
    void badSplitColumnsAreNamed()
    {
        Map<String, String> missing = JdbcTesting.connectorProperties(postgres, changes -> changes.put("read.split-column.splits_test.items", "nope"));
        try (Connector connector = JdbcTesting.createConnector(missing, allocator)) {
            TableHandle table = connector.metadata().getTable(SCHEMA, "items").orElseThrow();
            assertThatThrownBy(() -> connector.splits(table, ALL_COLUMNS, 4))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessage("Catalog 'pg': property 'read.split-column.splits_test.items' names column 'nope', which table 'pg.splits_test.items' does not have");
        }
        Map<String, String> text = JdbcTesting.connectorProperties(postgres, changes -> changes.put("read.split-column.splits_test.items", "name"));
        try (Connector connector = JdbcTesting.createConnector(text, allocator)) {
            TableHandle table = connector.metadata().getTable(SCHEMA, "items").orElseThrow();
            assertThatThrownBy(() -> connector.splits(table, ALL_COLUMNS, 4))
                    .hasMessage("Catalog 'pg': property 'read.split-column.splits_test.items' names column 'name' of table 'pg.splits_test.items', which is not numeric");
        }
    }

    @Test
    void engineReadsSplitTablesInParallel()
    {
        Map<String, String> catalog = new HashMap<>(splitProperties());
        catalog.put("connector.name", "jdbc");
        // the engine aggregates the rows it reads from the splits, rather than PostgreSQL the whole table
        catalog.put("read.aggregate-pushdown", "false");
        try (Engine engine = JdbcTesting.createEngine(catalog)) {
            assertThat(JdbcTesting.execute(engine.createSession("test"), "SELECT count(*), count(id), sum(id), sum(amount) FROM " + CATALOG + "." + SCHEMA + ".items"))
                    .isEqualTo(postgres.query("SELECT count(*), count(id), sum(id)::bigint, sum(amount) FROM splits_test.items"));
        }
    }

    private static List<List<Object>> sorted(List<List<Object>> rows)
    {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Object::toString));
        return copy;
    }
}
