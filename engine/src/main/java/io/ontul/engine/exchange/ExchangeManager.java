package io.ontul.engine.exchange;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.engine.api.EngineConfig;
import io.ontul.spi.DataSize;
import io.ontul.exchange.checkpoint.CheckpointConfig;
import io.ontul.exchange.checkpoint.CheckpointStore;
import io.ontul.exchange.compression.CompressionCodec;
import io.ontul.exchange.crypto.EncryptionConfig;
import io.ontul.exchange.crypto.ExchangeStreamFactory;
import io.ontul.exchange.spill.SpillStore;

/**
 * The engine's side of the Exchange Manager: everything that leaves memory lives under one base
 * directory, {@value #BASE_DIRECTORY} (default {@code <data-dir>/exchange}), written through
 * one {@link ExchangeStreamFactory} (encrypted unless switched off). Without a configured base
 * directory or data directory — an engine embedded in a test or in {@code bin/ontul sql} — it
 * uses a private temporary directory that it deletes on {@link #close}.
 */
public final class ExchangeManager
        implements AutoCloseable
{
    public static final String BASE_DIRECTORY = "ontul.exchange.base.dir";
    public static final String DATA_DIRECTORY = io.ontul.engine.api.EngineConfig.DATA_DIRECTORY;
    public static final String SPILL_MAX_BYTES = SpillStore.MAX_BYTES;
    public static final String DEFAULT_SPILL_MAX_BYTES = "100GB";
    /** Spill files' codec; default: that of {@link EncryptionConfig#COMPRESSION}, which checkpoints use. */
    public static final String SPILL_COMPRESSION = SpillStore.COMPRESSION;
    /** A spilled hash join's partitions' codec; default none ({@link SpillStore#JOIN_COMPRESSION}). */
    public static final String SPILL_JOIN_COMPRESSION = SpillStore.JOIN_COMPRESSION;
    public static final String DEFAULT_SPILL_JOIN_COMPRESSION = "none";
    public static final String MASTER_KEY_VARIABLE = io.ontul.engine.api.EngineConfig.MASTER_KEY_VARIABLE;

    private static final Logger LOG = LoggerFactory.getLogger(ExchangeManager.class);

    private final Path baseDirectory;
    private final Optional<Path> temporary;
    private final ExchangeStreamFactory streams;
    private final SpillStore spillStore;
    private final Map<String, String> properties;
    private CheckpointStore checkpointStore;

    private ExchangeManager(Path baseDirectory, Optional<Path> temporary, ExchangeStreamFactory streams, SpillStore spillStore, Map<String, String> properties)
    {
        this.properties = Map.copyOf(requireNonNull(properties, "properties is null"));
        this.baseDirectory = requireNonNull(baseDirectory, "baseDirectory is null");
        this.temporary = requireNonNull(temporary, "temporary is null");
        this.streams = requireNonNull(streams, "streams is null");
        this.spillStore = requireNonNull(spillStore, "spillStore is null");
    }

    /**
     * @param masterKeyPassphrase the value of {@value #MASTER_KEY_VARIABLE}, if set
     * @param spillFolder the folder of this process's spill files under the base directory: a
     *        node of a cluster has its own ({@code spill/<node id>}), as the nodes may share the
     *        base directory for their checkpoints and each clears its spill folder when it starts
     */
    public static ExchangeManager create(EngineConfig config, Optional<String> masterKeyPassphrase, String spillFolder)
    {
        Optional<Path> dataDirectory = Optional.ofNullable(config.property(DATA_DIRECTORY, null)).map(Path::of);
        Optional<Path> temporary = Optional.empty();
        Path base;
        String configured = config.property(BASE_DIRECTORY, null);
        try {
            if (configured != null) {
                base = Path.of(configured);
            }
            else if (dataDirectory.isPresent()) {
                base = dataDirectory.get().resolve("exchange");
            }
            else {
                temporary = Optional.of(Files.createTempDirectory("ontul-exchange-"));
                base = temporary.get();
            }
            Files.createDirectories(base);
            Path keyDirectory = dataDirectory.map(directory -> directory.resolve("kms")).orElse(base.resolve("kms"));
            ExchangeStreamFactory streams = ExchangeStreamFactory.create(EncryptionConfig.fromProperties(config.properties()), keyDirectory, masterKeyPassphrase);
            long maxBytes = DataSize.parse(config.property(SPILL_MAX_BYTES, DEFAULT_SPILL_MAX_BYTES), SPILL_MAX_BYTES);
            String spillCodec = config.property(SPILL_COMPRESSION, null);
            ExchangeStreamFactory spillStreams = spillCodec == null ? streams : streams.withCompression(EncryptionConfig.parseCompression(spillCodec, SPILL_COMPRESSION));
            CompressionCodec joinCodec = EncryptionConfig.parseCompression(config.property(SPILL_JOIN_COMPRESSION, DEFAULT_SPILL_JOIN_COMPRESSION), SPILL_JOIN_COMPRESSION);
            SpillStore spill = SpillStore.open(base.resolve(spillFolder), spillStreams, streams.withCompression(joinCodec), maxBytes);
            return new ExchangeManager(base, temporary, streams, spill, config.properties());
        }
        catch (IOException e) {
            temporary.ifPresent(ExchangeManager::deleteQuietly);
            throw new UncheckedIOException("Cannot open the exchange directory: " + e.getMessage(), e);
        }
        catch (RuntimeException e) {
            temporary.ifPresent(ExchangeManager::deleteQuietly);
            throw e;
        }
    }

    public Path baseDirectory()
    {
        return baseDirectory;
    }

    public ExchangeStreamFactory streams()
    {
        return streams;
    }

    public SpillStore spillStore()
    {
        return spillStore;
    }

    /**
     * The checkpoint store of streaming jobs, in {@code <base directory>/checkpoints}, opened on
     * first use with the same encryption as spill files.
     */
    public synchronized CheckpointStore checkpointStore()
    {
        if (checkpointStore == null) {
            Map<String, String> settings = new HashMap<>(properties);
            settings.put(CheckpointConfig.BASE_DIRECTORY, baseDirectory.toAbsolutePath().toString());
            checkpointStore = CheckpointStore.open(CheckpointConfig.fromProperties(settings, baseDirectory), streams);
        }
        return checkpointStore;
    }

    @Override
    public void close()
    {
        synchronized (this) {
            if (checkpointStore != null) {
                checkpointStore.close();
                checkpointStore = null;
            }
        }
        temporary.ifPresent(ExchangeManager::deleteQuietly);
    }

    private static void deleteQuietly(Path root)
    {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
        catch (IOException e) {
            LOG.warn("Cannot delete temporary exchange directory {}: {}", root, e.getMessage());
        }
    }
}
