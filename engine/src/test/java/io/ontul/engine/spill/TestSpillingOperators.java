package io.ontul.engine.spill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
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

/**
 * Queries whose state does not fit the memory budget spill through the Exchange Manager and
 * still answer exactly as DuckDB does on the same data (TPC-H scale 0.1); their spill files are
 * gone once the query ends, however it ends.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class TestSpillingOperators
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
        duckDb = DuckDbTpch.openInMemory();
        DuckDbTpch.load(duckDb, "tpch", "sf0_1", 0.1);
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
    public void sortOfAllLineitemByComment()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("SELECT l_orderkey, l_linenumber, l_comment, l_extendedprice FROM tpch.sf0_1.lineitem ORDER BY l_comment, l_orderkey, l_linenumber");
    }

    @Test
    public void sortOfAMemoryTableSpillsAlthoughItsBatchesAreShared()
            throws SQLException, IOException
    {
        // the sort holds batches that share the memory table's buffers: the query's allocator
        // does not see them, so the sort has to count what it holds against the budget itself
        String copy = "CREATE TABLE memory.\"default\".lineitem_to_sort AS SELECT l_orderkey, l_linenumber, l_comment FROM tpch.sf0_1.lineitem";
        try (QueryResult result = engine.createSession("test").execute(copy)) {
            ResultRows.drain(result);
        }
        try (Statement statement = duckDb.createStatement()) {
            statement.execute("CREATE SCHEMA IF NOT EXISTS memory.\"default\"");
            statement.execute(copy);
        }
        try {
            assertSpillsAndMatchesDuckDb("SELECT * FROM memory.\"default\".lineitem_to_sort ORDER BY l_comment, l_orderkey, l_linenumber");
        }
        finally {
            try (QueryResult result = engine.createSession("test").execute("DROP TABLE memory.\"default\".lineitem_to_sort")) {
                ResultRows.drain(result);
            }
        }
    }

    @Test
    public void sortOfNarrowRowsCountsWhatSortingThemTakes()
            throws SQLException, IOException
    {
        // 600,572 rows of 12 bytes fit 30 MB, but the arrays that sort them take 40 bytes a row:
        // the sort spills rather than failing (or sorting outside the budget) at the end
        assertThat(spill.assertSpillsAndMatches("SELECT l_orderkey, l_linenumber FROM tpch.sf0_1.lineitem ORDER BY l_orderkey DESC, l_linenumber", "30MB")).isNotEmpty();
        assertNoSpillFilesLeft();
    }

    @Test
    public void sortWithOffsetAndLimit()
            throws SQLException, IOException
    {
        assertSpillsAndMatchesDuckDb("SELECT l_orderkey, l_linenumber, l_comment FROM tpch.sf0_1.lineitem ORDER BY l_comment DESC, l_orderkey, l_linenumber LIMIT 400000 OFFSET 1000");
    }

    @Test
    public void sortWithNullsInTheLeadingKeys()
            throws SQLException, IOException
    {
        // NULLs placed both ways, descending strings and numbers: the sorted runs and their merge
        // compare the leading key's digits only between rows without NULL
        assertSpillsAndMatchesDuckDb("SELECT l_orderkey, l_linenumber, "
                + "CASE WHEN l_linenumber = 3 THEN NULL ELSE l_shipinstruct END AS instruction, NULLIF(l_quantity, 7) AS quantity, l_comment FROM tpch.sf0_1.lineitem "
                + "ORDER BY instruction DESC NULLS FIRST, quantity NULLS LAST, l_comment DESC, l_orderkey, l_linenumber");
        assertSpillsAndMatchesDuckDb("SELECT l_orderkey, l_linenumber, NULLIF(l_extendedprice, l_extendedprice) AS always_null, "
                + "CASE WHEN l_orderkey % 5 = 0 THEN NULL ELSE l_discount END AS discount, l_shipdate FROM tpch.sf0_1.lineitem "
                + "ORDER BY always_null, discount DESC NULLS LAST, l_shipdate DESC, l_orderkey, l_linenumber");
    }

    @Test
    public void cancelledSpillingQueryLeavesNothing()
            throws IOException
    {
        Session session = session();
        long before = engine.exchange().spillStore().writtenBytes();
        QueryResult result = session.execute("SELECT * FROM tpch.sf0_1.lineitem ORDER BY l_comment");
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
        try (QueryResult next = session.execute("SELECT count(*) FROM tpch.tiny.nation")) {
            assertThat(ResultRows.drain(next)).containsExactly(List.of(25L));
        }
    }

    @Test
    public void filesOfAKilledProcessAreRemovedAtStart(@TempDir Path otherDataDirectory)
            throws IOException
    {
        Path leftover = otherDataDirectory.resolve("exchange/spill/20261130_010203_00007_abcde/run-3.arrow");
        Files.createDirectories(leftover.getParent());
        Files.write(leftover, new byte[4096]);
        try (Engine restarted = Engine.create(EngineConfig.embeddedDefaults().withProperty(ExchangeManager.DATA_DIRECTORY, otherDataDirectory.toString()))) {
            assertThat(Files.exists(leftover.getParent())).isFalse();
            assertThat(restarted.exchange().spillStore().directory()).isEqualTo(otherDataDirectory.resolve("exchange/spill"));
            assertThat(otherDataDirectory.resolve("kms")).isDirectory();
        }
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
