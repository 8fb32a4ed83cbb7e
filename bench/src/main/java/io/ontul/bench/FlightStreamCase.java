package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;

/** A plain Arrow Flight read: GetFlightInfo of a descriptor, then DoGet of its ticket. */
public final class FlightStreamCase
        implements StreamCase
{
    private final String name;
    private final FlightClient client;
    private final FlightDescriptor descriptor;

    public FlightStreamCase(String name, FlightClient client, FlightDescriptor descriptor)
    {
        this.name = requireNonNull(name, "name is null");
        this.client = requireNonNull(client, "client is null");
        this.descriptor = requireNonNull(descriptor, "descriptor is null");
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public StreamRun read()
            throws Exception
    {
        StreamTally tally = StreamTally.start();
        FlightInfo info = client.getInfo(descriptor);
        try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
            while (stream.next()) {
                tally.batch(stream.getRoot());
            }
        }
        return tally.finish();
    }
}
