package io.ontul.exchange.spill;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import io.ontul.exchange.ExchangeStorageException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.exchange.compression.CompressionCodec;
import io.ontul.exchange.crypto.ExchangeStreamFactory;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Where operators put data that does not fit in a query's memory budget. One store per server,
 * in {@code <exchange base dir>/spill}; it hands each query a {@link SpillSpace}, a folder of its
 * own that is deleted when the query ends, whatever way it ends.
 *
 * <p>Every spill file goes through the {@link ExchangeStreamFactory}, so it is encrypted and
 * compressed as the exchange settings say. The store counts the bytes on disk over all queries;
 * a write that would take them over {@code ontul.exchange.spill.max-bytes} fails that query with
 * {@link ErrorCode#EXCEEDED_SPILL_LIMIT}. Opening a store deletes what a killed process left.
 * Thread-safe.
 */
public final class SpillStore
{
    public static final String MAX_BYTES = "ontul.exchange.spill.max-bytes";
    /** The codec of spill files when it differs from that of the exchange ({@link io.ontul.exchange.crypto.EncryptionConfig#COMPRESSION}). */
    public static final String COMPRESSION = "ontul.exchange.spill.compression";
    /**
     * The codec of a spilled hash join's partitions ({@link SpillSpace#newJoinRun}), by default
     * none: each is written in many short pieces and read back once, soon after, and compressing
     * them costs more CPU than writing and reading the bytes it saves (measured in
     * bench/RESULTS.md, "Spilled join partitions are not compressed").
     */
    public static final String JOIN_COMPRESSION = "ontul.exchange.spill.join-compression";

    private static final Logger LOG = LoggerFactory.getLogger(SpillStore.class);

    private final Path directory;
    private final ExchangeStreamFactory streams;
    private final ExchangeStreamFactory joinStreams;
    private final long maxBytes;
    private final AtomicLong usedBytes = new AtomicLong();
    private final AtomicLong writtenBytes = new AtomicLong();
    private final AtomicLong readBytes = new AtomicLong();
    private final AtomicLong filesWritten = new AtomicLong();

    private SpillStore(Path directory, ExchangeStreamFactory streams, ExchangeStreamFactory joinStreams, long maxBytes)
    {
        this.directory = requireNonNull(directory, "directory is null");
        this.streams = requireNonNull(streams, "streams is null");
        this.joinStreams = requireNonNull(joinStreams, "joinStreams is null");
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /**
     * Opens the store in {@code directory}, creating it, and deletes the files of queries that
     * a previous process did not get to clean up. Every file is written with {@code streams}.
     */
    public static SpillStore open(Path directory, ExchangeStreamFactory streams, long maxBytes)
    {
        return open(directory, streams, streams, maxBytes);
    }

    /**
     * Opens the store like {@link #open(Path, ExchangeStreamFactory, long)}, writing a hash join's
     * partitions with {@code joinStreams} (same keys and encryption, its own codec).
     */
    public static SpillStore open(Path directory, ExchangeStreamFactory streams, ExchangeStreamFactory joinStreams, long maxBytes)
    {
        SpillStore store = new SpillStore(directory, streams, joinStreams, maxBytes);
        try {
            Files.createDirectories(directory);
            int swept = SpillFiles.deleteChildren(directory);
            if (swept > 0) {
                LOG.info("Removed {} spill folder(s) left in {} by an earlier process", swept, directory);
            }
        }
        catch (IOException e) {
            throw new ExchangeStorageException("Cannot prepare spill directory", directory, e);
        }
        return store;
    }

    /** A new, empty spill space for one query; its folder is created on first use. */
    public SpillSpace forQuery(String queryId)
    {
        requireNonNull(queryId, "queryId is null");
        if (!queryId.matches("[A-Za-z0-9_.-]+")) {
            throw new IllegalArgumentException("query id is not a file name: " + queryId);
        }
        return new SpillSpace(this, directory.resolve(queryId));
    }

    public Path directory()
    {
        return directory;
    }

    /** Spill bytes on disk now, over all queries. */
    public long usedBytes()
    {
        return usedBytes.get();
    }

    /** Spill bytes ever written by this store, deleted files included. */
    public long writtenBytes()
    {
        return writtenBytes.get();
    }

    /** Spill bytes read back by this store's readers (a run's bytes count once per reading). */
    public long readBytes()
    {
        return readBytes.get();
    }

    /** Spill files ever started by this store. */
    public long filesWritten()
    {
        return filesWritten.get();
    }

    /** The codec that compresses the chunks of this store's files. */
    public CompressionCodec compression()
    {
        return streams.config().compression();
    }

    /** The codec that compresses the chunks of a hash join's partitions ({@link #JOIN_COMPRESSION}). */
    public CompressionCodec joinCompression()
    {
        return joinStreams.config().compression();
    }

    public long maxBytes()
    {
        return maxBytes;
    }

    ExchangeStreamFactory streams()
    {
        return streams;
    }

    ExchangeStreamFactory joinStreams()
    {
        return joinStreams;
    }

    void charge(String queryId, long bytes)
    {
        long before = usedBytes.getAndAccumulate(bytes, (used, more) -> used + more > maxBytes ? used : used + more);
        if (before + bytes > maxBytes) {
            throw new OntulException(ErrorCode.EXCEEDED_SPILL_LIMIT, "Query " + queryId + " needs more spill space than is free: the server's spill files would exceed "
                    + MAX_BYTES + " = " + maxBytes + " bytes");
        }
        writtenBytes.addAndGet(bytes);
    }

    void fileStarted()
    {
        filesWritten.incrementAndGet();
    }

    void recordRead(long bytes)
    {
        readBytes.addAndGet(bytes);
    }

    void refund(long bytes)
    {
        usedBytes.addAndGet(-bytes);
    }
}
