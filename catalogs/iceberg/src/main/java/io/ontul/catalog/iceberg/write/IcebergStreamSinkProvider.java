package io.ontul.catalog.iceberg.write;

import static java.util.Objects.requireNonNull;

import java.util.function.ToLongFunction;

import org.apache.arrow.memory.BufferAllocator;

import io.ontul.catalog.iceberg.IcebergTableHandle;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;
import io.ontul.spi.stream.StreamSink;
import io.ontul.spi.stream.StreamSinkProvider;

/** Exactly-once streaming writes into Iceberg tables: {@link IcebergStreamSink}. */
public final class IcebergStreamSinkProvider
        implements StreamSinkProvider
{
    private final ToLongFunction<IcebergTableHandle> targetFileSize;

    public IcebergStreamSinkProvider(ToLongFunction<IcebergTableHandle> targetFileSize)
    {
        this.targetFileSize = requireNonNull(targetFileSize, "targetFileSize is null");
    }

    @Override
    public StreamSink createSink(TableHandle table, String jobId, BufferAllocator allocator)
    {
        if (!(table.connectorHandle() instanceof IcebergTableHandle handle)) {
            throw OntulException.userError(ErrorCode.NOT_SUPPORTED, "Table '%s' is a metadata table and read-only", table.qualifiedName());
        }
        return new IcebergStreamSink(handle, jobId, targetFileSize.applyAsLong(handle), allocator);
    }
}
