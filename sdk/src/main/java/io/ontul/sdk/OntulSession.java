package io.ontul.sdk;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.auth2.BearerCredentialWriter;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.sdk.stream.Source;
import io.ontul.sdk.stream.StreamBuilder;

/**
 * A connection to an Ontul server over Arrow Flight SQL: SQL statements, their rows or Arrow
 * batches, and streaming jobs built with a fluent API. Thread-safe; close it when done.
 * <pre>{@code
 * try (OntulSession session = OntulSession.builder().master("127.0.0.1", 47470).user("admin", password).build()) {
 *     SqlResult nations = session.sql("SELECT * FROM tpch.tiny.nation");
 *     String job = session.streamSource(Source.kafka("kafka.default.orders"))
 *             .filter("amount > 100")
 *             .window(WindowSpec.tumbling(Duration.ofSeconds(10)), "event_time")
 *             .groupBy("category")
 *             .agg("SUM(amount) AS total", "COUNT(*) AS cnt")
 *             .sink(Sink.iceberg("iceberg.lake.totals"))
 *             .commitInterval(10_000)
 *             .parallelism(4)
 *             .name("order_totals")
 *             .start();
 * }
 * }</pre>
 */
public final class OntulSession
        implements AutoCloseable
{
    private final BufferAllocator allocator;
    private final FlightClient client;
    private final FlightSqlClient sql;
    private final CallOption credentials;

    private OntulSession(BufferAllocator allocator, FlightClient client, CallOption credentials)
    {
        this.allocator = allocator;
        this.client = client;
        this.sql = new FlightSqlClient(client);
        this.credentials = credentials;
    }

    public static Builder builder()
    {
        return new Builder();
    }

    /**
     * Runs a statement and reads its whole result into memory: rows of queries, the update
     * count of statements that change data.
     *
     * @throws OntulClientException with the server's error code and message
     */
    public SqlResult sql(String statement)
    {
        List<SqlResult.Column> columns = new ArrayList<>();
        List<List<Object>> rows = new ArrayList<>();
        sqlBatches(statement, batch -> {
            if (columns.isEmpty()) {
                batch.getSchema().getFields().forEach(field -> columns.add(new SqlResult.Column(field.getName(), field.getType().toString())));
            }
            for (int row = 0; row < batch.getRowCount(); row++) {
                List<Object> values = new ArrayList<>(batch.getFieldVectors().size());
                for (int column = 0; column < batch.getFieldVectors().size(); column++) {
                    values.add(SqlResult.javaValue(batch.getVector(column).getObject(row)));
                }
                rows.add(values);
            }
        });
        return new SqlResult(columns, rows);
    }

    /**
     * Runs a statement and hands its result to {@code consumer} one Arrow batch at a time; a
     * batch is valid only during the call.
     *
     * @throws OntulClientException with the server's error code and message
     */
    public void sqlBatches(String statement, Consumer<VectorSchemaRoot> consumer)
    {
        requireNonNull(statement, "statement is null");
        try {
            FlightInfo info = sql.execute(statement, credentials);
            for (FlightEndpoint endpoint : info.getEndpoints()) {
                try (FlightStream stream = sql.getStream(endpoint.getTicket(), credentials)) {
                    while (stream.next()) {
                        consumer.accept(stream.getRoot());
                    }
                }
            }
        }
        catch (FlightRuntimeException e) {
            throw OntulClientException.of(e);
        }
        catch (RuntimeException e) {
            // the consumer's own failure, as it threw it
            throw e;
        }
        catch (Exception e) {
            // closing a stream declares Exception
            throw new OntulClientException("INTERNAL", "Reading the result of a statement failed: " + e.getMessage(), e);
        }
    }

    /** Starts describing a streaming job that reads {@code source}; {@link StreamBuilder#start()} creates it. */
    public StreamBuilder streamSource(Source source)
    {
        return new StreamBuilder(this, source);
    }

    /** The streaming jobs as SHOW STREAMING JOBS lists them, column name to value. */
    public List<Map<String, Object>> jobs()
    {
        return sql("SHOW STREAMING JOBS").asMaps();
    }

    /** The streaming job {@code name}, to stop, start, drop or look at. */
    public JobHandle job(String name)
    {
        return new JobHandle(this, name);
    }

    @Override
    public void close()
    {
        try {
            sql.close();
        }
        catch (Exception e) {
            // the client closes below anyway
        }
        try {
            client.close();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        allocator.close();
    }

    /** How to reach and log in to the server. */
    public static final class Builder
    {
        private String host;
        private int port = 47470;
        private Optional<String> token = Optional.empty();
        private Optional<String> user = Optional.empty();
        private String password;
        private boolean tls;
        private Optional<Path> trustedCertificate = Optional.empty();

        private Builder() {}

        /** The server's Flight SQL address (default port 47470). */
        public Builder master(String host, int port)
        {
            this.host = requireNonNull(host, "host is null");
            this.port = port;
            return this;
        }

        /** Logs in with a token from an earlier login ({@code POST /v1/login} or a Flight SQL handshake). */
        public Builder token(String jwt)
        {
            this.token = Optional.of(requireNonNull(jwt, "jwt is null"));
            return this;
        }

        public Builder user(String name, String password)
        {
            this.user = Optional.of(requireNonNull(name, "name is null"));
            this.password = requireNonNull(password, "password is null");
            return this;
        }

        /** TLS, trusting the system's certificate authorities. */
        public Builder tls()
        {
            this.tls = true;
            return this;
        }

        /** TLS, trusting the PEM certificate in {@code trustedCertificate} (a server's self-signed one). */
        public Builder tls(Path trustedCertificate)
        {
            this.tls = true;
            this.trustedCertificate = Optional.of(requireNonNull(trustedCertificate, "trustedCertificate is null"));
            return this;
        }

        /**
         * Connects and logs in.
         *
         * @throws OntulClientException when the server refuses the credentials or cannot be reached
         */
        public OntulSession build()
        {
            if (host == null) {
                throw new IllegalStateException("Name the server: master(host, port)");
            }
            if (token.isPresent() == user.isPresent()) {
                throw new IllegalStateException("Log in with either token(jwt) or user(name, password)");
            }
            BufferAllocator allocator = new RootAllocator();
            FlightClient client = null;
            try {
                FlightClient.Builder builder = FlightClient.builder(allocator, tls ? Location.forGrpcTls(host, port) : Location.forGrpcInsecure(host, port));
                if (trustedCertificate.isPresent()) {
                    try (InputStream certificate = Files.newInputStream(trustedCertificate.get())) {
                        builder.trustedCertificates(certificate);
                    }
                }
                client = builder.build();
                CallOption credentials;
                if (token.isPresent()) {
                    credentials = new CredentialCallOption(new BearerCredentialWriter(token.get()));
                }
                else {
                    credentials = client.authenticateBasicToken(user.get(), password)
                            .orElseThrow(() -> new OntulClientException("UNAUTHENTICATED", "The server returned no token for user '" + user.get() + "'"));
                }
                OntulSession session = new OntulSession(allocator, client, credentials);
                // a bad token fails here, not at the first statement
                session.sql("SELECT 1");
                return session;
            }
            catch (FlightRuntimeException e) {
                close(client, allocator);
                throw OntulClientException.of(e);
            }
            catch (IOException e) {
                close(client, allocator);
                throw new UncheckedIOException("Cannot read the trusted certificate " + trustedCertificate.orElseThrow(), e);
            }
            catch (RuntimeException e) {
                close(client, allocator);
                throw e;
            }
        }

        private static void close(FlightClient client, BufferAllocator allocator)
        {
            if (client != null) {
                try {
                    client.close();
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            allocator.close();
        }
    }
}
