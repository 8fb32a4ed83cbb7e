package io.ontul.catalog.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.ontul.spi.BatchSource;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;

class TestTpchConnector
{
    private static final Map<String, Long> TINY_ROW_COUNTS = Map.of(
            "lineitem", 60_175L,
            "orders", 15_000L,
            "customer", 1_500L,
            "part", 2_000L,
            "partsupp", 8_000L,
            "supplier", 100L,
            "nation", 25L,
            "region", 5L);

    private final TpchConnector connector = new TpchConnector("tpch");
    private BufferAllocator allocator;

    @BeforeEach
    void setUp()
    {
        allocator = new RootAllocator();
    }

    @AfterEach
    void tearDown()
    {
        // throws if a batch leaked
        allocator.close();
    }

    @Test
    void testRowCountsOfAllSplitsAtTiny()
    {
        for (Map.Entry<String, Long> entry : TINY_ROW_COUNTS.entrySet()) {
            TableHandle table = table("tiny", entry.getKey());
            for (int desiredSplits : List.of(1, 3, 7)) {
                List<Split> splits = connector.splits(table, scan(), desiredSplits);
                assertThat(splits).hasSizeBetween(1, desiredSplits);
                assertThat(countRows(splits, scan())).as(entry.getKey() + " in " + desiredSplits).isEqualTo(entry.getValue());
            }
            // whatever the size policy, every part count covers the table exactly once
            for (int partCount : List.of(1, 3, 7)) {
                List<Split> parts = new ArrayList<>();
                for (int part = 1; part <= partCount; part++) {
                    parts.add(new TpchSplit((TpchTableHandle) table.connectorHandle(), part, partCount));
                }
                assertThat(countRows(parts, scan(firstColumn(table)))).as(entry.getKey() + " in " + partCount + " parts").isEqualTo(entry.getValue());
            }
        }
    }

    @Test
    void testSplitCounts()
    {
        assertThat(connector.splits(table("sf1", "nation"), scan(), 8)).hasSize(1);
        assertThat(connector.splits(table("sf1", "region"), scan(), 8)).hasSize(1);
        assertThat(connector.splits(table("tiny", "orders"), scan(), 8)).hasSize(1);
        assertThat(connector.splits(table("tiny", "lineitem"), scan(), 100)).hasSize(6);
        assertThat(connector.splits(table("sf1", "lineitem"), scan(), 8)).hasSize(8);
        assertThat(connector.splits(table("sf1", "lineitem"), scan(), 0)).hasSize(1);
        assertThat(connector.splits(table("sf1", "lineitem"), scan(), 8).get(2).describe()).isEqualTo("tpch sf1.lineitem part 3/8");
    }

    @Test
    void testRowsEqualTheGenerator()
    {
        for (TpchTable<?> reference : TpchTable.getTables()) {
            assertSameRows(reference);
        }
    }

    private <E extends TpchEntity> void assertSameRows(TpchTable<E> reference)
    {
        TableHandle table = table("tiny", reference.getTableName());
        List<String> columns = reference.getColumns().stream().map(TpchColumn::getColumnName).toList();
        List<Split> parts = new ArrayList<>();
        for (int part = 1; part <= 3; part++) {
            parts.add(new TpchSplit((TpchTableHandle) table.connectorHandle(), part, 3));
        }
        Iterator<E> expected = reference.createGenerator(0.01, 1, 1).iterator();
        long rows = 0;
        for (Split split : parts) {
            try (BatchSource source = connector.createSource(split, scan(columns), allocator)) {
                for (VectorSchemaRoot batch = source.next(); batch != null; batch = source.next()) {
                    try (VectorSchemaRoot closed = batch) {
                        for (int row = 0; row < batch.getRowCount(); row++) {
                            E entity = expected.next();
                            for (int column = 0; column < columns.size(); column++) {
                                Object actual = batch.getVector(column).getObject(row);
                                TpchColumn<E> referenceColumn = reference.getColumns().get(column);
                                assertThat(normalize(actual)).as("%s row %d", referenceColumn.getColumnName(), rows).isEqualTo(expectedValue(referenceColumn, entity));
                            }
                            rows++;
                        }
                    }
                }
            }
        }
        assertThat(expected.hasNext()).isFalse();
        assertThat(rows).isEqualTo(TINY_ROW_COUNTS.get(reference.getTableName()));
    }

    @Test
    void testFirstRows()
    {
        List<List<Object>> region = readAll(table("tiny", "region"), scan("r_regionkey", "r_name"), 1);
        assertThat(region).containsExactly(
                List.of(0L, "AFRICA"),
                List.of(1L, "AMERICA"),
                List.of(2L, "ASIA"),
                List.of(3L, "EUROPE"),
                List.of(4L, "MIDDLE EAST"));

        List<List<Object>> nation = readAll(table("sf1", "nation"), scan("n_nationkey", "n_name", "n_regionkey"), 4);
        assertThat(nation).hasSize(25);
        assertThat(nation.get(0)).isEqualTo(List.of(0L, "ALGERIA", 0L));
        assertThat(nation.get(24)).isEqualTo(List.of(24L, "UNITED STATES", 1L));

        // tpch.tiny.lineitem's first row in Trino and in dbgen at scale 0.01
        List<String> columns = List.of("l_orderkey", "l_partkey", "l_suppkey", "l_linenumber", "l_quantity", "l_extendedprice", "l_discount", "l_tax",
                "l_returnflag", "l_linestatus", "l_shipdate", "l_commitdate", "l_receiptdate", "l_shipinstruct", "l_shipmode", "l_comment");
        TableHandle lineitem = table("tiny", "lineitem");
        try (BatchSource source = connector.createSource(connector.splits(lineitem, scan(columns), 1).get(0), scan(columns), allocator);
                VectorSchemaRoot batch = source.next()) {
            assertThat(batch.getRowCount()).isEqualTo(TpchBatchSource.BATCH_SIZE);
            List<Object> row = new ArrayList<>();
            for (FieldVector vector : batch.getFieldVectors()) {
                row.add(normalize(vector.getObject(0)));
            }
            assertThat(row).containsExactly(1L, 1552L, 93L, 1, new BigDecimal("17.00"), new BigDecimal("24710.35"), new BigDecimal("0.04"), new BigDecimal("0.02"),
                    "N", "O", days("1996-03-13"), days("1996-02-12"), days("1996-03-22"), "DELIVER IN PERSON", "TRUCK", "egular courts above the");
        }
    }

    @Test
    void testProjectionOrderAndBatchSize()
    {
        TableHandle lineitem = table("tiny", "lineitem");
        ScanSpec scan = scan("l_comment", "l_orderkey", "l_comment");
        long rows = 0;
        for (Split split : connector.splits(lineitem, scan, 3)) {
            try (BatchSource source = connector.createSource(split, scan, allocator)) {
                for (VectorSchemaRoot batch = source.next(); batch != null; batch = source.next()) {
                    try (VectorSchemaRoot closed = batch) {
                        assertThat(batch.getSchema().getFields()).extracting(Field::getName).containsExactly("l_comment", "l_orderkey", "l_comment");
                        assertThat(batch.getRowCount()).isBetween(1, TpchBatchSource.BATCH_SIZE);
                        for (FieldVector vector : batch.getFieldVectors()) {
                            assertThat(vector.getValueCount()).isEqualTo(batch.getRowCount());
                        }
                        assertThat(batch.getVector(0).getObject(0)).isEqualTo(batch.getVector(2).getObject(0));
                        rows += batch.getRowCount();
                    }
                }
                assertThat(source.next()).isNull();
            }
        }
        assertThat(rows).isEqualTo(60_175);
    }

    @Test
    void testBatchesOfTheRowsTheScanAsksFor()
    {
        // a query under a small memory limit asks for smaller batches; every row still comes, once
        TableHandle lineitem = table("tiny", "lineitem");
        ScanSpec scan = scan("l_orderkey", "l_linenumber").withMaxBatchRows(1000);
        Set<List<Object>> keys = new HashSet<>();
        long batches = 0;
        for (Split split : connector.splits(lineitem, scan, 2)) {
            try (BatchSource source = connector.createSource(split, scan, allocator)) {
                for (VectorSchemaRoot batch = source.next(); batch != null; batch = source.next()) {
                    try (VectorSchemaRoot closed = batch) {
                        assertThat(batch.getRowCount()).isBetween(1, 1000);
                        for (int row = 0; row < batch.getRowCount(); row++) {
                            keys.add(List.of(batch.getVector(0).getObject(row), batch.getVector(1).getObject(row)));
                        }
                        batches++;
                    }
                }
            }
        }
        assertThat(keys).hasSize(60_175);
        assertThat(batches).isGreaterThanOrEqualTo(61);
    }

    @Test
    void testNoColumns()
    {
        assertThat(countRows(connector.splits(table("tiny", "lineitem"), scan(), 4), scan())).isEqualTo(60_175);
    }

    @Test
    void testEarlyClose()
    {
        ScanSpec scan = scan("l_orderkey", "l_comment");
        BatchSource source = connector.createSource(connector.splits(table("tiny", "lineitem"), scan, 1).get(0), scan, allocator);
        source.next().close();
        source.close();
        assertThat(source.next()).isNull();
        assertThat(allocator.getAllocatedMemory()).isZero();
    }

    @Test
    void testUnknownColumn()
    {
        TableHandle orders = table("tiny", "orders");
        Split split = connector.splits(orders, scan(), 1).get(0);
        assertThatThrownBy(() -> connector.createSource(split, scan("o_nope"), allocator))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND))
                .hasMessage("Column 'o_nope' does not exist in table 'tpch.tiny.orders'");
    }

    @Test
    void testParallelSplits()
            throws Exception
    {
        TableHandle lineitem = table("tiny", "lineitem");
        ScanSpec scan = scan("l_orderkey", "l_extendedprice", "l_comment");
        long expected = checksum(connector.splits(lineitem, scan, 1), scan);
        List<Split> splits = connector.splits(lineitem, scan, 4);
        assertThat(splits).hasSize(4);
        ExecutorService executor = Executors.newFixedThreadPool(4);
        try {
            List<Future<Long>> futures = new ArrayList<>();
            for (Split split : splits) {
                futures.add(executor.submit(() -> checksum(List.of(split), scan)));
            }
            long actual = 0;
            for (Future<Long> future : futures) {
                actual += future.get();
            }
            assertThat(actual).isEqualTo(expected);
        }
        finally {
            executor.shutdownNow();
        }
    }

    private long checksum(List<Split> splits, ScanSpec scan)
    {
        long checksum = 0;
        for (List<Object> row : read(splits, scan)) {
            checksum += row.hashCode();
        }
        return checksum;
    }

    private List<List<Object>> readAll(TableHandle table, ScanSpec scan, int desiredSplits)
    {
        return read(connector.splits(table, scan, desiredSplits), scan);
    }

    private List<List<Object>> read(List<Split> splits, ScanSpec scan)
    {
        List<List<Object>> rows = new ArrayList<>();
        for (Split split : splits) {
            try (BatchSource source = connector.createSource(split, scan, allocator)) {
                for (VectorSchemaRoot batch = source.next(); batch != null; batch = source.next()) {
                    try (VectorSchemaRoot closed = batch) {
                        for (int row = 0; row < batch.getRowCount(); row++) {
                            List<Object> values = new ArrayList<>();
                            for (FieldVector vector : batch.getFieldVectors()) {
                                values.add(normalize(vector.getObject(row)));
                            }
                            rows.add(values);
                        }
                    }
                }
            }
        }
        return rows;
    }

    private long countRows(List<Split> splits, ScanSpec scan)
    {
        long rows = 0;
        for (Split split : splits) {
            try (BatchSource source = connector.createSource(split, scan, allocator)) {
                for (VectorSchemaRoot batch = source.next(); batch != null; batch = source.next()) {
                    rows += batch.getRowCount();
                    batch.close();
                }
            }
        }
        return rows;
    }

    private TableHandle table(String schema, String table)
    {
        return connector.metadata().getTable(schema, table).orElseThrow();
    }

    private static String firstColumn(TableHandle table)
    {
        return table.columns().getFields().get(0).getName();
    }

    private static ScanSpec scan(String... columns)
    {
        return scan(List.of(columns));
    }

    private static ScanSpec scan(List<String> columns)
    {
        return new ScanSpec(columns, List.of());
    }

    private static Object normalize(Object value)
    {
        return value instanceof org.apache.arrow.vector.util.Text text ? text.toString() : value;
    }

    private static int days(String date)
    {
        return (int) LocalDate.parse(date).toEpochDay();
    }

    /** The value io.trino.tpch's own column accessors give, in the form our vectors return it. */
    private static <E extends TpchEntity> Object expectedValue(TpchColumn<E> column, E entity)
    {
        return switch (column.getType().getBase()) {
            case IDENTIFIER -> column.getIdentifier(entity);
            case INTEGER -> column.getInteger(entity);
            case DOUBLE -> BigDecimal.valueOf(Math.round(column.getDouble(entity) * 100), 2);
            case DATE -> column.getDate(entity);
            case VARCHAR -> column.getString(entity);
        };
    }
}
