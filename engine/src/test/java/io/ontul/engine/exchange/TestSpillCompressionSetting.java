package io.ontul.engine.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.ontul.engine.Engine;
import io.ontul.engine.EngineConfig;
import io.ontul.engine.QueryResult;
import io.ontul.engine.Session;
import io.ontul.engine.testing.ResultRows;
import io.ontul.exchange.compression.CompressionCodec;
import io.ontul.exchange.crypto.EncryptionConfig;
import io.ontul.spi.OntulException;

/** {@value ExchangeManager#SPILL_COMPRESSION} gives spill files a codec of their own; checkpoints keep the exchange's. */
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
    void anUnknownCodecIsRefusedNamingTheSetting()
    {
        assertThatThrownBy(() -> Engine.create(config("lz4").withProperty(ExchangeManager.SPILL_COMPRESSION, "snappy")).close())
                .isInstanceOf(OntulException.class)
                .hasMessageContaining("'snappy'")
                .hasMessageContaining(ExchangeManager.SPILL_COMPRESSION);
    }

    private EngineConfig config(String compression)
    {
        return EngineConfig.embeddedDefaults()
                .withProperty(ExchangeManager.DATA_DIRECTORY, directory.resolve(compression).toString())
                .withProperty(EncryptionConfig.COMPRESSION, compression);
    }
}
