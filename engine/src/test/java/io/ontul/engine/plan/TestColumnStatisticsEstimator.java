package io.ontul.engine.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.schema.SchemaPlus;
import org.junit.jupiter.api.Test;

import io.ontul.engine.security.UserAccess;
import io.ontul.engine.sql.ConnectorTable;
import io.ontul.engine.sql.parser.OntulParser;
import io.ontul.spi.BatchSource;
import io.ontul.spi.ColumnStatistics;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorMetadata;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;
import io.ontul.spi.TableStatistics;

/**
 * Row estimates from column statistics ({@link ColumnStatisticsEstimator}, and the join estimate
 * of {@link JoinRowCountEstimator} that uses distinct counts), read off the plans the real
 * planner makes. Expected values are computed by hand in each test from the statistics below.
 */
class TestColumnStatisticsEstimator
{
    /** 100,000 sales: 1,000 items (1..1000), 1,800 days (2000..3799), qty 1..50 with 10% NULL, 10 notes. */
    private static final TableHandle SALES = new TableHandle("c", "s", "sales",
            new Schema(List.of(integer("item"), integer("day"), integer("qty"), new Field("note", FieldType.nullable(ArrowType.Utf8.INSTANCE), null))),
            new TableStatistics(100_000, List.of(), Map.of(
                    "item", new ColumnStatistics(1_000, 0, 1, 1_000),
                    "day", new ColumnStatistics(1_800, 0, 2_000, 3_799),
                    "qty", new ColumnStatistics(50, 0.1, 1, 50),
                    "note", new ColumnStatistics(10, 0, Double.NaN, Double.NaN))),
            null);
    /** 73,000 days (0..72999, a key) over 200 years (1900..2099). */
    private static final TableHandle DAYS = new TableHandle("c", "s", "days",
            new Schema(List.of(integer("day"), integer("year"))),
            new TableStatistics(73_000, List.of(List.of("day")), Map.of(
                    "day", new ColumnStatistics(73_000, 0, 0, 72_999),
                    "year", new ColumnStatistics(200, 0, 1_900, 2_099))),
            null);
    /** 100,000 rows of weekly stock: 260 days, every seventh of 2000..3799. */
    private static final TableHandle STOCK = new TableHandle("c", "s", "stock",
            new Schema(List.of(integer("day"), integer("qty"))),
            new TableStatistics(100_000, List.of(), Map.of("day", new ColumnStatistics(260, 0, 2_000, 3_799))),
            null);
    /** The same shape as SALES without column statistics. */
    private static final TableHandle PLAIN = new TableHandle("c", "s", "plain", SALES.columns(), new TableStatistics(100_000), null);

    @Test
    void equalityKeepsOneDistinctValuesShareOfTheNonNullRows()
    {
        assertThat(rows("SELECT * FROM sales WHERE item = 7")).isCloseTo(100_000 / 1_000.0, withPercentage(1));
        // 90% of the rows have a qty, 1/50 of them 7
        assertThat(rows("SELECT * FROM sales WHERE qty = 7")).isCloseTo(100_000 * 0.9 / 50, withPercentage(1));
        // outside the column's range: next to nothing
        assertThat(rows("SELECT * FROM sales WHERE item = 5000")).isLessThanOrEqualTo(1.0);
    }

    @Test
    void rangesKeepTheShareOfMinToMaxTheyCover()
    {
        // (2450 - 2000) / (3799 - 2000)
        assertThat(rows("SELECT * FROM sales WHERE day < 2450")).isCloseTo(100_000 * 450 / 1_799.0, withPercentage(1));
        assertThat(rows("SELECT * FROM sales WHERE day BETWEEN 2100 AND 2279")).isCloseTo(100_000 * 179 / 1_799.0, withPercentage(1));
        // constant arithmetic is folded first (ConstantFolding), so it is estimated as a literal
        assertThat(rows("SELECT * FROM sales WHERE day < 2000 + 450")).isCloseTo(100_000 * 450 / 1_799.0, withPercentage(1));
        // a bound past the range keeps everything
        assertThat(rows("SELECT * FROM sales WHERE day > 1000")).isCloseTo(100_000, withPercentage(1));
    }

    @Test
    void inListsNullsAndDisjunctions()
    {
        assertThat(rows("SELECT * FROM sales WHERE item IN (1, 2, 3)")).isCloseTo(300, withPercentage(1));
        assertThat(rows("SELECT * FROM sales WHERE item NOT IN (1, 2, 3)")).isCloseTo(100_000 - 300, withPercentage(1));
        assertThat(rows("SELECT * FROM sales WHERE qty IS NULL")).isCloseTo(10_000, withPercentage(1));
        // 1 - (1 - 1/10) * (1 - 1/1000)
        assertThat(rows("SELECT * FROM sales WHERE note = 'x' OR item = 7")).isCloseTo(100_000 * (1 - 0.9 * 0.999), withPercentage(1));
        // a LIKE on a column with statistics keeps a tenth
        assertThat(rows("SELECT * FROM sales WHERE note LIKE '%x%'")).isCloseTo(10_000, withPercentage(1));
        // conjunctions multiply: 1/1000 * 1/10
        assertThat(rows("SELECT * FROM sales WHERE item = 7 AND note = 'x'")).isCloseTo(10, withPercentage(1));
    }

    @Test
    void aggregationsMakeAsManyGroupsAsDistinctKeys()
    {
        assertThat(rows("SELECT item, count(*) FROM sales GROUP BY item")).isCloseTo(1_000, withPercentage(1));
        assertThat(rows("SELECT item, note, count(*) FROM sales GROUP BY item, note")).isCloseTo(10_000, withPercentage(1));
        // qty has NULLs: 50 values and the NULL group
        assertThat(rows("SELECT qty, count(*) FROM sales GROUP BY qty")).isCloseTo(51, withPercentage(1));
    }

    @Test
    void aJoinMeetsTheSideWithFewerDistinctKeys()
    {
        // the days of 2000: 73,000 / 200 = 365, taken to lie in the 1,800 days the sales span, so
        // 100,000 * 365 / 1,800 sales match (not 100,000 * 365 / 73,000 = 500, the share of the
        // day table that survives, which forgets that sales cover five of its 200 years)
        assertThat(rows("SELECT * FROM sales JOIN days ON sales.day = days.day WHERE year = 2000")).isCloseTo(100_000 * 365 / 1_800.0, withPercentage(2));
        // weekly stock over the same span meets a year's days on a fifth of its rows too (52 of its
        // 260 days), not on all of them, as if its 260 days all were among those 365
        assertThat(rows("SELECT * FROM stock JOIN days ON stock.day = days.day WHERE year = 2000")).isCloseTo(100_000 * 365 / 1_800.0, withPercentage(2));
        // unfiltered, each fact meets its one day
        assertThat(rows("SELECT * FROM sales JOIN days ON sales.day = days.day")).isCloseTo(100_000, withPercentage(1));
    }

    @Test
    void withoutColumnStatisticsCalcitesGuessesStay()
    {
        assertThat(rows("SELECT * FROM plain WHERE item = 7")).isCloseTo(100_000 * 0.15, withPercentage(1));
        assertThat(rows("SELECT item, count(*) FROM plain GROUP BY item")).isCloseTo(10_000, withPercentage(1));
    }

    private static double rows(String sql)
    {
        SchemaPlus root = CalciteSchema.createRootSchema(false).plus();
        for (TableHandle table : List.of(SALES, DAYS, STOCK, PLAIN)) {
            root.add(table.table(), new ConnectorTable(new NoConnector(), table));
        }
        LogicalPlanner planner = new LogicalPlanner(root, List.of(), UserAccess.unrestricted("test"));
        RelNode plan = planner.toOptimizedRel(planner.validate(OntulParser.parse(sql))).rel;
        return plan.getCluster().getMetadataQuery().getRowCount(plan);
    }

    private static Field integer(String name)
    {
        return new Field(name, FieldType.nullable(new ArrowType.Int(32, true)), null);
    }

    /** Planning reads only the table handles; nothing here runs. */
    private static final class NoConnector
            implements Connector
    {
        @Override
        public ConnectorMetadata metadata()
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<Split> splits(TableHandle table, ScanSpec scan, int desiredSplits)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public BatchSource createSource(Split split, ScanSpec scan, BufferAllocator allocator)
        {
            throw new UnsupportedOperationException();
        }
    }
}
