package io.ontul.engine.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;

import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.exchange.ExchangeManager;
import io.ontul.engine.testing.DuckDbTpch;
import io.ontul.engine.testing.ResultRows;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

import io.trino.tpch.TpchTable;

/**
 * Window functions whose input does not fit the memory budget spill in hash partitions of the
 * PARTITION BY key and still answer exactly as DuckDB does on the same data (TPC-H scale 0.1
 * lineitem); without PARTITION BY they fail with an error that says why; their spill files are
 * gone once the query ends.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class TestSpillingWindow
{
    private static final String SMALL_BUDGET = "48MB";

    @TempDir
    static Path dataDirectory;

    private DuckDBConnection duckDb;
    private Engine engine;
    private SpillTesting spill;

    @BeforeAll
    public void setUp()
            throws SQLException
    {
        duckDb = DuckDbTpch.openWithTables("sf0_1", 0.1, TpchTable.LINE_ITEM);
        engine = Engine.create(EngineConfig.embeddedDefaults().withProperty(ExchangeManager.DATA_DIRECTORY, dataDirectory.toString()));
        spill = new SpillTesting(engine, duckDb);
    }

    @AfterAll
    public void tearDown()
            throws SQLException
    {
        if (engine != null) {
            engine.close();
        }
        if (duckDb != null) {
            duckDb.close();
        }
    }

    @Test
    public void rankingAndRunningSumByOrder()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("""
                SELECT l_orderkey, l_linenumber, l_comment,
                    ROW_NUMBER() OVER (PARTITION BY l_orderkey ORDER BY l_linenumber) AS row_number_in_order,
                    RANK() OVER (PARTITION BY l_orderkey ORDER BY l_quantity) AS quantity_rank,
                    SUM(l_extendedprice) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber) AS running_price
                FROM tpch.sf0_1.lineitem""");
    }

    @Test
    public void lagAndRowsFrameOverTwoWindowsSharingTheOrderKey()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("""
                SELECT l_orderkey, l_linenumber, l_returnflag, l_comment,
                    LAG(l_extendedprice) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber) AS previous_price,
                    LEAD(l_partkey, 2, -1) OVER (PARTITION BY l_orderkey ORDER BY l_linenumber) AS later_part,
                    SUM(l_quantity) OVER (PARTITION BY l_orderkey, l_returnflag ORDER BY l_linenumber ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS recent_quantity
                FROM tpch.sf0_1.lineitem""");
    }

    @Test
    public void orderByOverSpilledWindowStaysOrdered()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("""
                SELECT l_orderkey, l_linenumber, l_comment,
                    COUNT(*) OVER (PARTITION BY l_orderkey) AS lines,
                    ROW_NUMBER() OVER (PARTITION BY l_orderkey ORDER BY l_shipdate DESC, l_linenumber) AS latest_first
                FROM tpch.sf0_1.lineitem
                ORDER BY l_orderkey DESC, l_linenumber""");
    }

    @Test
    public void fewLargeWindowPartitions()
            throws SQLException, IOException
    {
        // seven window partitions of about 86,000 rows, each more than a hash partition should hold: one key, so evaluated whole
        assertSpillsAndMatchesDuckDb("""
                SELECT l_orderkey, l_linenumber, l_shipmode,
                    ROW_NUMBER() OVER (PARTITION BY l_shipmode ORDER BY l_orderkey, l_linenumber) AS place_in_mode,
                    AVG(l_quantity) OVER (PARTITION BY l_shipmode) AS average_quantity
                FROM tpch.sf0_1.lineitem""");
    }

    @Test
    public void windowPartitionLargerThanMemoryIsSortedAndStreamed()
            throws SQLException, IOException
    {
        // three window partitions of 150,000 to 300,000 rows, each more than 48 MB holds: sorted (spilling) and streamed;
        // ORDER BY l_shipdate has peers, so RANK, DENSE_RANK and the RANGE running aggregates see whole peer groups
        assertSpillsAndMatchesDuckDb("""
                SELECT l_orderkey, l_linenumber, l_returnflag, l_shipdate,
                    RANK() OVER w AS date_rank,
                    DENSE_RANK() OVER w AS dense_date_rank,
                    COUNT(*) OVER w AS lines_so_far,
                    SUM(l_quantity) OVER w AS quantity_so_far,
                    AVG(l_discount) OVER w AS average_discount_so_far,
                    MAX(l_extendedprice) OVER w AS highest_price_so_far,
                    MIN(l_comment) OVER w AS first_comment_so_far
                FROM tpch.sf0_1.lineitem
                WINDOW w AS (PARTITION BY l_returnflag ORDER BY l_shipdate)""");
    }

    @Test
    public void wholePartitionAggregatesOverWindowPartitionsLargerThanMemory()
            throws SQLException, IOException
    {
        // three window partitions of 150,000 to 300,000 rows, each more than 48 MB holds: sorted and streamed, every row
        // waiting for its partition's end, so the rows waiting are written out and given the partition's values when read back
        assertSpillsAndMatchesDuckDb("""
                SELECT l_orderkey, l_linenumber, l_returnflag, l_comment,
                    COUNT(*) OVER w AS lines,
                    SUM(l_quantity) OVER w AS quantity,
                    AVG(l_discount) OVER w AS average_discount,
                    MIN(l_comment) OVER w AS least_comment,
                    MAX(l_extendedprice) OVER w AS highest_price
                FROM tpch.sf0_1.lineitem
                WINDOW w AS (PARTITION BY l_returnflag)""");
    }

    @Test
    public void peerGroupsLargerThanMemory()
            throws SQLException, IOException
    {
        // ORDER BY l_linestatus makes peer groups of 4,000 to 300,000 rows: RANGE frames give each row its last peer's value
        assertSpillsAndMatchesDuckDb("""
                SELECT l_orderkey, l_linenumber, l_returnflag, l_linestatus, l_comment,
                    RANK() OVER w AS status_rank,
                    DENSE_RANK() OVER w AS dense_status_rank,
                    COUNT(*) OVER w AS lines_so_far,
                    SUM(l_extendedprice) OVER w AS price_so_far,
                    MAX(l_comment) OVER w AS greatest_comment_so_far
                FROM tpch.sf0_1.lineitem
                WINDOW w AS (PARTITION BY l_returnflag ORDER BY l_linestatus)""");
    }

    @Test
    public void lastValueAndFramesToThePartitionsEndBesideLagAndLead()
            throws SQLException, IOException
    {
        // frames to UNBOUNDED FOLLOWING beside ROWS running frames, LAG and LEAD (whose rows stay in memory) over one sort order;
        // the ORDER BY is total, so that LAST_VALUE, LAG and LEAD are deterministic
        assertSpillsAndMatchesDuckDb("""
                SELECT l_orderkey, l_linenumber, l_returnflag, l_shipdate,
                    ROW_NUMBER() OVER w AS place,
                    LAG(l_partkey, 3) OVER w AS part_three_back,
                    LEAD(l_comment, 2, 'none') OVER w AS comment_two_later,
                    LAST_VALUE(l_comment) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS last_comment,
                    LAST_VALUE(l_extendedprice) OVER w AS own_price,
                    SUM(l_quantity) OVER (w RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS total_quantity,
                    MIN(l_shipdate) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS first_shipped,
                    COUNT(l_comment) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS lines_so_far
                FROM tpch.sf0_1.lineitem
                WINDOW w AS (PARTITION BY l_returnflag ORDER BY l_shipdate, l_orderkey, l_linenumber)""");
    }

    @Test
    public void aggregatesOverAllRowsWithoutPartitionByOrOrderBy()
            throws SQLException, IOException
    {
        // OVER (): one frame of all 600,572 rows, streamed unsorted; the rows are written out while they wait for the end
        assertSpillsAndMatchesDuckDb("""
                SELECT l_orderkey, l_linenumber, l_comment,
                    COUNT(*) OVER () AS all_lines,
                    SUM(l_quantity) OVER () AS all_quantity,
                    MAX(l_comment) OVER () AS greatest_comment
                FROM tpch.sf0_1.lineitem""");
    }

    @Test
    public void withoutPartitionByIsSortedAndStreamed()
            throws SQLException, IOException
    {
        // one window partition of all 600,572 rows
        assertSpillsAndMatchesDuckDb("""
                SELECT l_orderkey, l_linenumber,
                    ROW_NUMBER() OVER w AS place,
                    LAG(l_orderkey) OVER w AS previous_order,
                    LEAD(l_comment, 3, 'none') OVER w AS comment_three_later,
                    LAG(l_partkey, 20000, l_suppkey) OVER w AS part_far_back,
                    SUM(l_extendedprice) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running_price,
                    FIRST_VALUE(l_comment) OVER w AS first_comment
                FROM tpch.sf0_1.lineitem
                WINDOW w AS (ORDER BY l_comment, l_orderkey, l_linenumber)""");
    }

    @Test
    public void streamedWindowWithNulls()
            throws SQLException, IOException
    {
        // NULL as a PARTITION BY value (one partition), NULLs first in ORDER BY, NULL arguments skipped by the aggregates;
        // the ORDER BY is total, so that ROW_NUMBER, LAG, LEAD and FIRST_VALUE are deterministic
        assertSpillsAndMatchesDuckDb("""
                SELECT l_orderkey, l_linenumber, flag, shipped, quantity,
                    ROW_NUMBER() OVER w AS place,
                    RANK() OVER w AS shipped_rank,
                    LAG(quantity, 2) OVER w AS quantity_two_back,
                    LAG(l_orderkey, 10000, -1) OVER w AS order_far_back,
                    LEAD(quantity, 0) OVER w AS same_quantity,
                    LEAD(shipped) OVER w AS next_shipped,
                    COUNT(quantity) OVER w AS quantities_so_far,
                    SUM(quantity) OVER w AS quantity_so_far,
                    MIN(quantity) OVER w AS least_quantity_so_far,
                    FIRST_VALUE(quantity) OVER w AS first_quantity
                FROM (
                    SELECT l_orderkey, l_linenumber,
                        CASE WHEN l_linenumber = 1 THEN NULL ELSE l_returnflag END AS flag,
                        CASE WHEN l_orderkey % 11 = 0 THEN NULL ELSE l_shipdate END AS shipped,
                        CASE WHEN l_orderkey % 7 = 0 THEN NULL ELSE l_quantity END AS quantity
                    FROM tpch.sf0_1.lineitem) AS t
                WINDOW w AS (PARTITION BY flag ORDER BY shipped NULLS FIRST, l_orderkey, l_linenumber)""");
    }

    @Test
    public void windowPartitionLargerThanMemoryFailsClearlyWhenItCannotBeStreamed()
            throws IOException
    {
        Session session = session();
        assertThatThrownBy(() -> {
            try (QueryResult result = session.execute("SELECT *, PERCENT_RANK() OVER (PARTITION BY l_returnflag ORDER BY l_comment) AS place FROM tpch.sf0_1.lineitem")) {
                ResultRows.drain(result);
            }
        }).isInstanceOfSatisfying(OntulException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT);
            assertThat(e.getMessage()).startsWith("Query exceeded per-query memory limit of 48MB: window functions evaluate each window partition in memory,"
                    + " and the ")
                    .contains(" rows of one PARTITION BY l_returnflag value do not fit; only windows whose functions are ROW_NUMBER, RANK, DENSE_RANK, LAG, LEAD (offsets up to 1000000), or COUNT, SUM,")
                    .endsWith(" (raise the limit with SET SESSION query_max_memory = '...')");
        });
        assertNoSpillFilesLeft();
    }

    @Test
    public void withoutPartitionByFailsClearlyWhenItCannotBeStreamed()
            throws IOException
    {
        Session session = session();
        assertThatThrownBy(() -> {
            try (QueryResult result = session.execute("SELECT l_orderkey, l_comment, NTILE(4) OVER (ORDER BY l_comment) AS quartile FROM tpch.sf0_1.lineitem")) {
                ResultRows.drain(result);
            }
        }).isInstanceOfSatisfying(OntulException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT);
            assertThat(e.getMessage())
                    .startsWith("Query exceeded per-query memory limit of 48MB: window functions without PARTITION BY keep all their input rows in memory (")
                    .contains(" rows held) and cannot spill; only windows whose functions are ROW_NUMBER, RANK, DENSE_RANK, LAG, LEAD (offsets up to 1000000), or COUNT, SUM,")
                    .endsWith(" (add PARTITION BY, or raise the limit with SET SESSION query_max_memory = '...')");
        });
        assertNoSpillFilesLeft();
        try (QueryResult next = session.execute("SELECT count(*) FROM tpch.sf0_1.lineitem")) {
            assertThat(ResultRows.drain(next)).containsExactly(List.of(600572L));
        }
    }

    @Test
    public void cancelledSpillingWindowLeavesNothing()
            throws IOException
    {
        Session session = session();
        long before = engine.exchange().spillStore().writtenBytes();
        QueryResult result = session.execute("SELECT l_orderkey, l_comment, ROW_NUMBER() OVER (PARTITION BY l_orderkey ORDER BY l_comment) AS place FROM tpch.sf0_1.lineitem");
        Thread canceller = new Thread(() -> {
            while (engine.exchange().spillStore().writtenBytes() == before) {
                Thread.onSpinWait();
            }
            result.cancel();
        });
        canceller.start();
        assertThatThrownBy(() -> {
            while (result.nextBatch() != null) {
                // drain until cancelled
            }
        }).isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUERY_CANCELLED));
        result.close();
        assertNoSpillFilesLeft();
    }

    private void assertSpillsAndMatchesDuckDb(String sql)
            throws SQLException, IOException
    {
        assertThat(spill.assertSpillsAndMatches(sql, SMALL_BUDGET)).isNotEmpty();
    }

    private Session session()
    {
        return spill.session(SMALL_BUDGET);
    }

    private void assertNoSpillFilesLeft()
            throws IOException
    {
        spill.assertNoSpillFilesLeft();
    }
}
