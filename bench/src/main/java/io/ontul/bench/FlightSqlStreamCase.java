package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;

/** A query through Arrow's FlightSqlClient: execute (GetFlightInfo), then DoGet of its ticket. */
public final class FlightSqlStreamCase
        implements StreamCase
{
    private final String name;
    private final FlightSqlClient client;
    private final CredentialCallOption credential;
    private final String sql;

    public FlightSqlStreamCase(String name, FlightSqlClient client, CredentialCallOption credential, String sql)
    {
        this.name = requireNonNull(name, "name is null");
        this.client = requireNonNull(client, "client is null");
        this.credential = requireNonNull(credential, "credential is null");
        this.sql = requireNonNull(sql, "sql is null");
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
        FlightInfo info = client.execute(sql, credential);
        try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket(), credential)) {
            while (stream.next()) {
                tally.batch(stream.getRoot());
            }
        }
        return tally.finish();
    }
}
