package io.ontul.server.cli;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.StatementKind;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Runs statements on a running server through Arrow's {@link FlightSqlClient}: basic
 * authentication gives a bearer token used by every call. Statements that return rows are
 * streamed; the others run as updates and yield the same one-row {@code rows} result as the
 * in-process engine. Server errors become {@link OntulException}s with the server's message.
 */
public final class FlightStatementExecutor
        implements StatementExecutor
{
    private static final Schema UPDATE_SCHEMA = new Schema(List.of(new Field("rows", FieldType.notNullable(new ArrowType.Int(64, true)), null)));

    private final BufferAllocator allocator;
    private final FlightClient client;
    private final FlightSqlClient sqlClient;
    private final CallOption credential;

    private FlightStatementExecutor(BufferAllocator allocator, FlightClient client, CallOption credential)
    {
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.client = requireNonNull(client, "client is null");
        this.sqlClient = new FlightSqlClient(client);
        this.credential = requireNonNull(credential, "credential is null");
    }

    public static FlightStatementExecutor connect(ServerConnection connection)
    {
        BufferAllocator allocator = new RootAllocator();
        FlightClient client = null;
        try {
            client = client(allocator, connection);
            CallOption credential = client.authenticateBasicToken(connection.user(), connection.password())
                    .orElseThrow(() -> new OntulException(ErrorCode.EXTERNAL_ERROR, "The server gave no session token"));
            return new FlightStatementExecutor(allocator, client, credential);
        }
        catch (RuntimeException e) {
            closeQuietly(client);
            allocator.close();
            throw translate(e, "Cannot connect to " + connection.address().host() + ":" + connection.address().port() + ": ");
        }
    }

    private static FlightClient client(BufferAllocator allocator, ServerConnection connection)
    {
        String host = connection.address().host();
        int port = connection.address().port();
        if (!connection.tls()) {
            return FlightClient.builder(allocator, Location.forGrpcInsecure(host, port)).build();
        }
        FlightClient.Builder builder = FlightClient.builder(allocator, Location.forGrpcTls(host, port));
        if (connection.trustedCertificate().isPresent()) {
            try (java.io.InputStream certificate = java.nio.file.Files.newInputStream(connection.trustedCertificate().get())) {
                builder.trustedCertificates(certificate);
                return builder.build();
            }
            catch (java.io.IOException e) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Cannot read the certificate " + connection.trustedCertificate().get() + ": " + e.getMessage());
            }
        }
        return builder.build();
    }

    @Override
    public QueryResult execute(String sql)
    {
        try {
            if (!StatementKind.of(sql).returnsRows()) {
                long count = sqlClient.executeUpdate(sql, credential);
                return new UpdateResult(count);
            }
            FlightInfo info = sqlClient.execute(sql, credential);
            return new StreamResult(info, sqlClient.getStream(info.getEndpoints().get(0).getTicket(), credential));
        }
        catch (RuntimeException e) {
            throw translate(e, "");
        }
    }

    @Override
    public void close()
    {
        closeQuietly(sqlClient);
        allocator.close();
    }

    private static RuntimeException translate(RuntimeException error, String prefix)
    {
        if (error instanceof FlightRuntimeException flight) {
            ErrorCode code = switch (flight.status().code()) {
                case NOT_FOUND -> ErrorCode.NOT_FOUND;
                case ALREADY_EXISTS -> ErrorCode.ALREADY_EXISTS;
                case CANCELLED -> ErrorCode.QUERY_CANCELLED;
                case INVALID_ARGUMENT, UNAUTHENTICATED -> ErrorCode.INVALID_ARGUMENT;
                case UNAUTHORIZED -> ErrorCode.PERMISSION_DENIED;
                case RESOURCE_EXHAUSTED -> ErrorCode.EXCEEDED_MEMORY_LIMIT;
                case UNIMPLEMENTED -> ErrorCode.NOT_SUPPORTED;
                case INTERNAL -> ErrorCode.INTERNAL_ERROR;
                default -> ErrorCode.EXTERNAL_ERROR;
            };
            String message = flight.status().description() == null || flight.status().description().isEmpty() ? flight.getMessage() : flight.status().description();
            return new OntulException(code, prefix + message);
        }
        if (!prefix.isEmpty() && !(error instanceof OntulException)) {
            return new OntulException(ErrorCode.EXTERNAL_ERROR, prefix + error.getMessage());
        }
        return error;
    }

    private static void closeQuietly(AutoCloseable closeable)
    {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        }
        catch (Exception e) {
            // the connection is going away either way
        }
    }

    private static final class StreamResult
            implements QueryResult
    {
        private final FlightInfo info;
        private final FlightStream stream;

        StreamResult(FlightInfo info, FlightStream stream)
        {
            this.info = info;
            this.stream = stream;
        }

        @Override
        public String queryId()
        {
            return "";
        }

        @Override
        public Schema schema()
        {
            return info.getSchemaOptional().orElseGet(stream::getSchema);
        }

        @Override
        public boolean isUpdate()
        {
            return false;
        }

        @Override
        public VectorSchemaRoot nextBatch()
        {
            try {
                return stream.next() ? stream.getRoot() : null;
            }
            catch (RuntimeException e) {
                throw translate(e, "");
            }
        }

        @Override
        public void cancel()
        {
            stream.cancel("Cancelled", null);
        }

        @Override
        public void close()
        {
            closeQuietly(stream);
        }
    }

    private final class UpdateResult
            implements QueryResult
    {
        private final long count;
        private VectorSchemaRoot batch;
        private boolean returned;

        UpdateResult(long count)
        {
            this.count = count;
        }

        @Override
        public String queryId()
        {
            return "";
        }

        @Override
        public Schema schema()
        {
            return UPDATE_SCHEMA;
        }

        @Override
        public boolean isUpdate()
        {
            return true;
        }

        @Override
        public VectorSchemaRoot nextBatch()
        {
            if (returned) {
                return null;
            }
            returned = true;
            batch = VectorSchemaRoot.create(UPDATE_SCHEMA, allocator);
            BigIntVector rows = (BigIntVector) batch.getVector(0);
            rows.allocateNew(1);
            rows.set(0, count);
            batch.setRowCount(1);
            return batch;
        }

        @Override
        public void close()
        {
            if (batch != null) {
                batch.close();
            }
        }
    }
}
