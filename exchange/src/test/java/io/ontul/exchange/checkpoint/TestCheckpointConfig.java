package io.ontul.exchange.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

public class TestCheckpointConfig
{
    private static final Path DATA = Path.of("/var/lib/ontul");

    @Test
    public void defaults()
    {
        CheckpointConfig config = CheckpointConfig.fromProperties(Map.of("ontul.query.max-memory", "2GB"), DATA);
        assertThat(config).isEqualTo(new CheckpointConfig("/var/lib/ontul/exchange", 3, Map.of()));
    }

    @Test
    public void explicitValues()
    {
        CheckpointConfig config = CheckpointConfig.fromProperties(Map.of(
                CheckpointConfig.BASE_DIRECTORY, " hdfs://namenode:8020/ontul/exchange ",
                CheckpointConfig.RETAINED, "10",
                "ontul.exchange.hadoop.dfs.replication", "2",
                "ontul.exchange.hadoop.", "ignored"), DATA);
        assertThat(config).isEqualTo(new CheckpointConfig("hdfs://namenode:8020/ontul/exchange", 10, Map.of("dfs.replication", "2")));
    }

    @Test
    public void invalidRetainedCount()
    {
        for (String value : new String[] {"0", "-1", "three", "1.5"}) {
            assertThatThrownBy(() -> CheckpointConfig.fromProperties(Map.of(CheckpointConfig.RETAINED, value), DATA))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessage("Invalid value '" + value + "' for ontul.exchange.checkpoint.retained: use a whole number of at least 1");
        }
    }

    @Test
    public void baseDirectoryNames()
    {
        assertThat(CheckpointFileSystem.toUri("/data/exchange")).isEqualTo(URI.create("file:///data/exchange"));
        assertThat(CheckpointFileSystem.toUri("/data/my exchange")).isEqualTo(URI.create("file:///data/my%20exchange"));
        assertThat(CheckpointFileSystem.toUri("data/exchange")).isEqualTo(Path.of("data/exchange").toAbsolutePath().toUri());
        assertThat(CheckpointFileSystem.toUri("file:///data/exchange")).isEqualTo(URI.create("file:///data/exchange"));
        assertThat(CheckpointFileSystem.toUri("file:/data/exchange")).isEqualTo(URI.create("file:/data/exchange"));
        assertThat(CheckpointFileSystem.toUri("hdfs://namenode:8020/ontul")).isEqualTo(URI.create("hdfs://namenode:8020/ontul"));
    }
}
