package io.ontul.spi.cluster;

import static java.util.Objects.requireNonNull;

/** A worker of a cluster: its node id and where it serves Flight. */
public record WorkerAddress(String id, String address)
{
    public WorkerAddress
    {
        requireNonNull(id, "id is null");
        requireNonNull(address, "address is null");
    }
}
