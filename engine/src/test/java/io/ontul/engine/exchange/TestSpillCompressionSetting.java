package io.ontul.engine.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.testing.ResultRows;
import io.ontul.exchange.compression.CompressionCodec;
import io.ontul.exchange.crypto.EncryptionConfig;
import io.ontul.spi.OntulException;

/**
 * {@value ExchangeManager#SPILL_COMPRESSION} gives spill files a codec of their own; checkpoints
 * keep the exchange's. {@value ExchangeManager#SPILL_JOIN_COMPRESSION} gives a spilled hash
 * join's partitions theirs, none by default.
 */
class TestSpillCompressionSetting
{
    @TempDir
    Path directory;

    @Test
    void spillFilesUseTheExchangeCodecUnlessTheyHaveTheirOwn()
    {
        try (Engine engine = Engine.create(config("zstd"))) {
            assertThat(engine.exchange().spillStore().compression()).isEqualTo(CompressionCodec.ZSTD);
        }
        try (Engine engine = Engine.create(config("lz4").withProperty(ExchangeManager.SPILL_COMPRESSION, "none"))) {
            assertThat(engine.exchange().spillStore().compression()).isEqualTo(CompressionCodec.NONE);
            assertThat(engine.exchange().streams().config().compression()).as("checkpoints' codec").isEqualTo(CompressionCodec.LZ4);
            // a query that spills through uncompressed files answers: one group per order, every line counted
            Session session = engine.createSession("test");
            session.properties().put("query_max_memory", "4MB");
            long spilledBefore = engine.exchange().spillStore().writtenBytes();
            try (QueryResult result = session.execute("""
                    SELECT count(*), sum(lines) FROM (SELECT l_orderkey, count(*) AS lines FROM tpch.sf0_1.lineitem GROUP BY l_orderkey)""")) {
                assertThat(ResultRows.drain(result)).containsExactly(List.of(150_000L, 600_572L));
            }
            assertThat(engine.exchange().spillStore().writtenBytes()).as("bytes spilled").isGreaterThan(spilledBefore);
            assertThat(engine.exchange().spillStore().usedBytes()).as("spill bytes left").isZero();
        }
    }

    @Test
    void joinPartitionsAreWrittenUncompressedUnlessConfigured()
    {
        String join = "SELECT count(*), sum(o_totalprice) FROM tpch.sf0_1.lineitem JOIN tpch.sf0_1.orders ON l_orderkey = o_orderkey";
        long uncompressed;
        List<Object> answer;
        try (Engine engine = Engine.create(config("lz4"))) {
            assertThat(engine.exchange().spillStore().compression()).isEqualTo(CompressionCodec.LZ4);
            assertThat(engine.exchange().spillStore().joinCompression()).isEqualTo(CompressionCodec.NONE);
            answer = spilledJoin(engine, join);
            uncompressed = engine.exchange().spillStore().writtenBytes();
        }
        long compressed;
        try (Engine engine = Engine.create(config("lz4").withProperty(ExchangeManager.SPILL_JOIN_COMPRESSION, "lz4"))) {
            assertThat(engine.exchange().spillStore().joinCompression()).isEqualTo(CompressionCodec.LZ4);
            assertThat(spilledJoin(engine, join)).as("same answer with compressed partitions").isEqualTo(answer);
            compressed = engine.exchange().spillStore().writtenBytes();
        }
        assertThat(answer.get(0)).as("every lineitem row has its order").isEqualTo(600_572L);
        // the same rows spilled, packed (keys and prices narrowed): LZ4 still finds a third of the bytes to drop
        assertThat(compressed).isPositive();
        assertThat(uncompressed).as("bytes of uncompressed partitions").isGreaterThan(compressed * 5 / 4);
    }

    /** Runs {@code sql} under a limit its join's build side does not fit; returns its one row, the spill files gone. */
    private static List<Object> spilledJoin(Engine engine, String sql)
    {
        Session session = engine.createSession("test");
        session.properties().put("query_max_memory", "4MB");
        List<List<Object>> rows;
        try (QueryResult result = session.execute(sql)) {
            rows = ResultRows.drain(result);
        }
        assertThat(engine.exchange().spillStore().writtenBytes()).as("bytes spilled").isPositive();
        assertThat(engine.exchange().spillStore().usedBytes()).as("spill bytes left").isZero();
        assertThat(rows).hasSize(1);
        return rows.get(0);
    }

    @Test
    void anUnknownCodecIsRefusedNamingTheSetting()
    {
        assertThatThrownBy(() -> Engine.create(config("lz4").withProperty(ExchangeManager.SPILL_COMPRESSION, "snappy")).close())
                .isInstanceOf(OntulException.class)
                .hasMessageContaining("'snappy'")
                .hasMessageContaining(ExchangeManager.SPILL_COMPRESSION);
        assertThatThrownBy(() -> Engine.create(config("lz4").withProperty(ExchangeManager.SPILL_JOIN_COMPRESSION, "gzip")).close())
                .isInstanceOf(OntulException.class)
                .hasMessageContaining("'gzip'")
                .hasMessageContaining(ExchangeManager.SPILL_JOIN_COMPRESSION);
    }

    private EngineConfig config(String compression)
    {
        return EngineConfig.embeddedDefaults()
                .withProperty(ExchangeManager.DATA_DIRECTORY, directory.resolve(compression).toString())
                .withProperty(EncryptionConfig.COMPRESSION, compression);
    }
}
