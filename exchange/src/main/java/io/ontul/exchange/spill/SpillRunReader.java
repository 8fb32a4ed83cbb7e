package io.ontul.exchange.spill;

import static java.util.Objects.requireNonNull;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import io.ontul.exchange.ExchangeStorageException;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.exchange.arrow.BatchEncoding;
import io.ontul.exchange.arrow.BatchStreamReader;
import io.ontul.exchange.crypto.ChunkedInputStream;
import io.ontul.exchange.crypto.ExchangeStreamFactory;

/**
 * Reads a spill run back batch by batch. Each batch returned by {@link #next} is a new
 * {@link VectorSchemaRoot} owned by the caller, who closes it; the reader holds at most one
 * chunk of the file and one batch. Any damage to the file (tampering, truncation, a wrong key)
 * fails the read with an error naming the file. Not thread-safe.
 */
public final class SpillRunReader
        implements AutoCloseable
{
    private final String file;
    private final ChunkedInputStream in;
    private final BatchStreamReader reader;

    SpillRunReader(ExchangeStreamFactory streams, SpillFile file, long start, long length, String name, Schema schema, BatchEncoding encoding, BufferAllocator allocator)
    {
        this.file = requireNonNull(name, "name is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(allocator, "allocator is null");
        InputStream raw = null;
        try {
            raw = new BufferedInputStream(file.open(start, length), 64 * 1024);
            this.in = streams.newInputStream(raw, name);
            raw = in;
            this.reader = encoding.newReader(in, schema, allocator);
        }
        catch (IOException | RuntimeException e) {
            if (raw != null) {
                try {
                    raw.close();
                }
                catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            if (e instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new ExchangeStorageException("Cannot read spill file", name, (IOException) e);
        }
    }

    /** The next batch, or null at the end of the run. */
    public VectorSchemaRoot next()
    {
        try {
            return reader.next();
        }
        catch (IOException e) {
            throw new ExchangeStorageException("Cannot read spill file", file, e);
        }
    }

    @Override
    public void close()
    {
        try {
            reader.close();
        }
        catch (IOException e) {
            throw new ExchangeStorageException("Cannot close spill file", file, e);
        }
    }
}
