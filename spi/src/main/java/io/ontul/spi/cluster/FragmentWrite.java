package io.ontul.spi.cluster;

import static java.util.Objects.requireNonNull;

/**
 * A fragment whose rows a worker writes into a table instead of streaming them: the table's
 * catalog and the coordinator's sink's {@link io.ontul.spi.BatchSink#remoteWriterHandle()}. The
 * worker then streams one row, what its writer finished ({@code rows BIGINT, written VARBINARY}).
 */
public record FragmentWrite(String catalog, byte[] handle)
{
    public FragmentWrite
    {
        requireNonNull(catalog, "catalog is null");
        requireNonNull(handle, "handle is null");
    }
}
