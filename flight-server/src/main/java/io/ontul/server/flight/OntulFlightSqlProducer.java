package io.ontul.server.flight;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.CloseSessionRequest;
import org.apache.arrow.flight.CloseSessionResult;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.GetSessionOptionsRequest;
import org.apache.arrow.flight.GetSessionOptionsResult;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.SchemaResult;
import org.apache.arrow.flight.SetSessionOptionsRequest;
import org.apache.arrow.flight.SetSessionOptionsResult;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.BasicFlightSqlProducer;
import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionClosePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementResult;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetCrossReference;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetDbSchemas;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetExportedKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetImportedKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetPrimaryKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetSqlInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTables;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetXdbcTypeInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementUpdate;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementUpdate;
import org.apache.arrow.flight.sql.impl.FlightSql.DoPutUpdateResult;
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.engine.api.CatalogBrowser;
import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCategory;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;

/**
 * The Flight SQL front of the engine. Every call runs in the engine session of its client
 * connection ({@link ConnectionSessions}).
 * <p>
 * Queries: GetFlightInfo starts the query and returns its schema and a ticket naming the
 * running result ({@link PendingResults}); DoGet streams that result ({@link ResultStreamer}).
 * Prepared statements learn their dataset schema by starting the query at preparation; an
 * empty dataset schema tells the client the statement is an update. Their parameter schema
 * gives the inferred types of the {@code ?} markers; the values a client binds (DoPut of a
 * parameter batch) are used by the following executions. Metadata commands answer
 * from the catalogs with the result schemas of the Flight SQL spec. Session options
 * ({@link SessionOptions}) act on the connection's session; closing it closes its prepared
 * statements and results. Bulk ingest writes a stream into a table in one commit
 * ({@link BulkIngest}). Every failure leaves as a Flight status chosen by {@link ErrorMapping}.
 */
public final class OntulFlightSqlProducer
        extends BasicFlightSqlProducer
{
    private static final Logger LOG = LoggerFactory.getLogger(OntulFlightSqlProducer.class);

    public static final String TABLE_TYPE = "TABLE";
    public static final String VIEW_TYPE = "VIEW";
    private static final String SEARCH_ESCAPE = "\\";
    private static final Schema EMPTY_SCHEMA = new Schema(List.of());

    private final Engine engine;
    private final BufferAllocator allocator;
    private final ConnectionSessions sessions;
    private final PendingResults pendingResults;
    private final PreparedStatements preparedStatements = new PreparedStatements();
    private final ResultStreamer streamer;
    private final SqlInfoBuilder sqlInfo;
    private final SessionOptions sessionOptions;
    private final BulkIngest bulkIngest;
    private final ClientTransports transports = new ClientTransports();
    private final io.ontul.server.cluster.ClusterActions clusterActions;
    private final List<AutoCloseable> closeWith = new java.util.concurrent.CopyOnWriteArrayList<>();

    public OntulFlightSqlProducer(Engine engine, BufferAllocator allocator, String version, Duration sessionIdleTimeout, Duration unfetchedResultTimeout)
    {
        this.engine = requireNonNull(engine, "engine is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.sessions = new ConnectionSessions(engine, sessionIdleTimeout, Clock.systemUTC());
        this.pendingResults = new PendingResults(unfetchedResultTimeout, Clock.systemUTC());
        this.streamer = new ResultStreamer(allocator);
        this.sqlInfo = OntulSqlInfo.create(requireNonNull(version, "version is null"), engine.maxStatementLength());
        this.sessionOptions = new SessionOptions();
        this.bulkIngest = new BulkIngest(engine, allocator);
        this.clusterActions = new io.ontul.server.cluster.ClusterActions(engine.cluster());
        transports.onTerminated(pendingResults::closeAll);
    }

    /** The filter a gRPC server installs so that results of a client connection that ends are closed. */
    public ClientTransports transports()
    {
        return transports;
    }

    /**
     * Closes results nobody fetched and forgets idle sessions with their prepared statements;
     * call it now and then.
     */
    public void maintain()
    {
        pendingResults.closeExpired();
        sessions.evictIdle().forEach(this::closeHandles);
    }

    private void closeHandles(Session session)
    {
        preparedStatements.closeAll(session);
        pendingResults.closeAll(session);
    }

    /** Closes {@code resource} when the producer closes (after the calls have ended). */
    public void closeWith(AutoCloseable resource)
    {
        closeWith.add(requireNonNull(resource, "resource is null"));
    }

    /** The cluster's own actions (workers registering and reporting) before Flight SQL's. */
    @Override
    public void doAction(CallContext context, org.apache.arrow.flight.Action action, StreamListener<org.apache.arrow.flight.Result> listener)
    {
        if (io.ontul.server.cluster.ClusterActions.handles(action.getType())) {
            clusterActions.handle(context, action, listener);
            return;
        }
        super.doAction(context, action, listener);
    }

    // ---- statements

    @Override
    public FlightInfo getFlightInfoStatement(CommandStatementQuery command, CallContext context, FlightDescriptor descriptor)
    {
        return mapErrors(() -> {
            Session session = sessions.session(context);
            return park(session, session.execute(command.getQuery()), context, descriptor);
        });
    }

    @Override
    public SchemaResult getSchemaStatement(CommandStatementQuery command, CallContext context, FlightDescriptor descriptor)
    {
        return mapErrors(() -> {
            // planned, not run: a query's columns are known without reading a row
            return new SchemaResult(sessions.session(context).prepare(command.getQuery()).resultSchema());
        });
    }

    @Override
    public void getStreamStatement(TicketStatementQuery ticket, CallContext context, ServerStreamListener listener)
    {
        QueryResult result;
        try {
            result = pendingResults.take(sessions.session(context), ticket.getStatementHandle());
        }
        catch (RuntimeException e) {
            listener.error(ErrorMapping.toFlight(e));
            return;
        }
        try {
            streamer.stream(result, listener);
        }
        finally {
            pendingResults.finished(ticket.getStatementHandle());
        }
    }

    /**
     * Cancels the query a FlightInfo of this session started: a parked result is closed, a
     * streaming one is told to stop (its DoGet then ends with CANCELLED).
     */
    @Override
    public void cancelFlightInfo(CancelFlightInfoRequest request, CallContext context, StreamListener<CancelStatus> listener)
    {
        try {
            Session session = sessions.session(context);
            CancelStatus status = CancelStatus.NOT_CANCELLABLE;
            for (FlightEndpoint endpoint : request.getInfo().getEndpoints()) {
                Any command = Any.parseFrom(endpoint.getTicket().getBytes());
                if (command.is(TicketStatementQuery.class)
                        && pendingResults.cancel(session, command.unpack(TicketStatementQuery.class).getStatementHandle())) {
                    status = CancelStatus.CANCELLED;
                }
            }
            listener.onNext(status);
            listener.onCompleted();
        }
        catch (InvalidProtocolBufferException e) {
            listener.onError(CallStatus.INVALID_ARGUMENT.withDescription("Not a ticket of this server").toRuntimeException());
        }
        catch (RuntimeException e) {
            listener.onError(ErrorMapping.toFlight(e));
        }
    }

    @Override
    public Runnable acceptPutStatement(CommandStatementUpdate command, CallContext context, FlightStream flightStream, StreamListener<PutResult> ackStream)
    {
        return () -> update(ackStream, queryId -> sessions.session(context).execute(command.getQuery(), null, queryId));
    }

    @Override
    public Runnable acceptPutStatementBulkIngest(CommandStatementIngest command, CallContext context, FlightStream flightStream, StreamListener<PutResult> ackStream)
    {
        return () -> reportUpdate(ackStream, () -> bulkIngest.ingest(sessions.session(context), command, flightStream));
    }

    private FlightInfo park(Session session, QueryResult result, CallContext context, FlightDescriptor descriptor)
    {
        return park(session, result, context, descriptor, Optional.empty());
    }

    /** @param preparedStatement the handle of the prepared statement executed, if one was */
    private FlightInfo park(Session session, QueryResult result, CallContext context, FlightDescriptor descriptor, Optional<ByteString> preparedStatement)
    {
        ConnectionMiddleware connection = context.getMiddleware(ConnectionMiddleware.KEY);
        Optional<String> transport = connection == null ? Optional.empty() : connection.transport();
        ByteString handle = pendingResults.park(session, result, transport, preparedStatement);
        if (transport.isPresent() && !transports.isOpen(transport.get())) {
            // the client went away while the query started: nobody will fetch it
            pendingResults.closeAll(transport.get());
        }
        if (preparedStatement.isPresent() && !preparedStatements.contains(session, preparedStatement.get())) {
            // the statement was closed (JDBC cancel or close) while the query started
            pendingResults.closeAll(session, preparedStatement.get());
        }
        Ticket ticket = new Ticket(Any.pack(TicketStatementQuery.newBuilder().setStatementHandle(handle).build()).toByteArray());
        return new FlightInfo(result.schema(), descriptor, List.of(new FlightEndpoint(ticket)), -1, -1);
    }

    /**
     * Runs an INSERT, CREATE TABLE AS or other update inside this DoPut call, and reports its count.
     * If the call is cancelled or its client goes away meanwhile, the statement is stopped
     * (CANCELLED, its partial write aborted) instead of writing on for nobody.
     */
    private void update(StreamListener<PutResult> ackStream, Function<Consumer<String>, QueryResult> execution)
    {
        reportUpdate(ackStream, whileCallLives(queryIds -> {
            try (QueryResult result = execution.apply(queryIds)) {
                return updateCount(result);
            }
        }));
    }

    /**
     * Runs {@code execution}, which tells the ids of the statements it starts, and cancels them
     * when the gRPC call they serve is cancelled (client cancel, deadline, dropped connection).
     */
    private LongSupplier whileCallLives(java.util.function.ToLongFunction<Consumer<String>> execution)
    {
        return () -> {
            io.grpc.Context call = io.grpc.Context.current();
            java.util.Set<String> started = java.util.concurrent.ConcurrentHashMap.newKeySet();
            io.grpc.Context.CancellationListener stop = cancelled -> started.forEach(id -> engine.cancel(id));
            call.addListener(stop, Runnable::run);
            try {
                return execution.applyAsLong(id -> {
                    started.add(id);
                    if (call.isCancelled()) {
                        engine.cancel(id);
                    }
                });
            }
            finally {
                call.removeListener(stop);
            }
        };
    }

    private void reportUpdate(StreamListener<PutResult> ackStream, LongSupplier execution)
    {
        long count;
        try {
            count = execution.getAsLong();
        }
        catch (RuntimeException e) {
            ackStream.onError(ErrorMapping.toFlight(e));
            return;
        }
        DoPutUpdateResult response = DoPutUpdateResult.newBuilder().setRecordCount(count).build();
        byte[] bytes = response.toByteArray();
        try (ArrowBuf buffer = allocator.buffer(bytes.length)) {
            buffer.writeBytes(bytes);
            ackStream.onNext(PutResult.metadata(buffer));
        }
        ackStream.onCompleted();
    }

    private static long updateCount(QueryResult result)
    {
        if (!result.isUpdate()) {
            // a query sent as an update: its rows have nowhere to go
            return 0;
        }
        VectorSchemaRoot batch = result.nextBatch();
        return batch == null || batch.getRowCount() == 0 ? 0 : ((BigIntVector) batch.getVector(0)).get(0);
    }

    // ---- prepared statements

    @Override
    public void createPreparedStatement(ActionCreatePreparedStatementRequest request, CallContext context, StreamListener<Result> listener)
    {
        try {
            Session session = sessions.session(context);
            io.ontul.engine.api.PreparedStatement prepared = session.prepare(request.getQuery());
            Schema parameterSchema = prepared.parameterSchema();
            ByteString handle;
            Schema schema = EMPTY_SCHEMA;
            if (prepared.returnsRows() && parameterSchema.getFields().isEmpty()) {
                // JDBC drivers prepare, execute once and close: the query started now is that execution
                QueryResult started = prepared.execute(List.of());
                schema = started.schema();
                handle = preparedStatements.add(prepared, schema, started);
            }
            else if (prepared.returnsRows()) {
                schema = prepared.resultSchema();
                handle = preparedStatements.add(prepared, schema, null);
            }
            else {
                handle = preparedStatements.add(prepared, null, null);
            }
            ActionCreatePreparedStatementResult response = ActionCreatePreparedStatementResult.newBuilder()
                    .setPreparedStatementHandle(handle)
                    .setDatasetSchema(serialize(schema))
                    .setParameterSchema(serialize(parameterSchema))
                    .build();
            listener.onNext(new Result(Any.pack(response).toByteArray()));
            listener.onCompleted();
        }
        catch (RuntimeException e) {
            listener.onError(ErrorMapping.toFlight(e));
        }
    }

    @Override
    public void closePreparedStatement(ActionClosePreparedStatementRequest request, CallContext context, StreamListener<Result> listener)
    {
        try {
            Session session = sessions.session(context);
            // Removed first, then its executions closed (they go with it, as a JDBC result set goes
            // with its statement): an execution that GetFlightInfo parks meanwhile sees the statement
            // gone and closes itself (see park), so a cancel during GetFlightInfo is never lost.
            try {
                preparedStatements.remove(session, request.getPreparedStatementHandle());
            }
            finally {
                pendingResults.closeAll(session, request.getPreparedStatementHandle());
            }
        }
        catch (RuntimeException e) {
            // closing twice, or after the session expired: nothing is left to close
        }
        listener.onCompleted();
    }

    @Override
    public FlightInfo getFlightInfoPreparedStatement(CommandPreparedStatementQuery command, CallContext context, FlightDescriptor descriptor)
    {
        return mapErrors(() -> {
            Session session = sessions.session(context);
            PreparedStatements.PreparedStatement statement = preparedStatements.get(session, command.getPreparedStatementHandle());
            return park(session, statement.execute(), context, descriptor, Optional.of(command.getPreparedStatementHandle()));
        });
    }

    @Override
    public SchemaResult getSchemaPreparedStatement(CommandPreparedStatementQuery command, CallContext context, FlightDescriptor descriptor)
    {
        return mapErrors(() -> {
            PreparedStatements.PreparedStatement statement = preparedStatements.get(sessions.session(context), command.getPreparedStatementHandle());
            return new SchemaResult(statement.isQuery() ? statement.schema() : EMPTY_SCHEMA);
        });
    }

    @Override
    public void getStreamPreparedStatement(CommandPreparedStatementQuery command, CallContext context, ServerStreamListener listener)
    {
        QueryResult result;
        try {
            result = preparedStatements.get(sessions.session(context), command.getPreparedStatementHandle()).execute();
        }
        catch (RuntimeException e) {
            listener.error(ErrorMapping.toFlight(e));
            return;
        }
        streamer.stream(result, listener);
    }

    @Override
    public Runnable acceptPutPreparedStatementUpdate(CommandPreparedStatementUpdate command, CallContext context, FlightStream flightStream, StreamListener<PutResult> ackStream)
    {
        return () -> {
            PreparedStatements.PreparedStatement statement;
            List<List<Object>> rows;
            try {
                statement = preparedStatements.get(sessions.session(context), command.getPreparedStatementHandle());
                rows = readParameters(flightStream);
            }
            catch (RuntimeException e) {
                ackStream.onError(ErrorMapping.toFlight(e));
                return;
            }
            if (rows.isEmpty()) {
                update(ackStream, queryId -> statement.execute(List.of(), queryId));
                return;
            }
            // one execution per parameter row (JDBC batches); the counts add up
            reportUpdate(ackStream, whileCallLives(queryIds -> {
                long total = 0;
                for (List<Object> row : rows) {
                    try (QueryResult result = statement.execute(row, queryIds)) {
                        total += updateCount(result);
                    }
                }
                return total;
            }));
        };
    }

    @Override
    public Runnable acceptPutPreparedStatementQuery(CommandPreparedStatementQuery command, CallContext context, FlightStream flightStream, StreamListener<PutResult> ackStream)
    {
        return () -> {
            try {
                PreparedStatements.PreparedStatement statement = preparedStatements.get(sessions.session(context), command.getPreparedStatementHandle());
                List<List<Object>> rows = readParameters(flightStream);
                statement.bind(rows);
                ackStream.onCompleted();
            }
            catch (RuntimeException e) {
                ackStream.onError(ErrorMapping.toFlight(e));
            }
        };
    }

    /** The rows of the parameter batches a client sends, converted to engine values. */
    private static List<List<Object>> readParameters(FlightStream flightStream)
    {
        List<List<Object>> rows = new ArrayList<>();
        while (flightStream.next()) {
            VectorSchemaRoot parameters = flightStream.getRoot();
            if (!parameters.getFieldVectors().isEmpty()) {
                rows.addAll(ParameterValues.rows(parameters));
            }
        }
        return rows;
    }

    // ---- metadata

    @Override
    protected <T extends Message> List<FlightEndpoint> determineEndpoints(T request, FlightDescriptor descriptor, Schema schema)
    {
        return List.of(new FlightEndpoint(new Ticket(Any.pack(request).toByteArray())));
    }

    @Override
    public void getStreamSqlInfo(CommandGetSqlInfo command, CallContext context, ServerStreamListener listener)
    {
        try {
            sqlInfo.send(command.getInfoList(), listener);
        }
        catch (RuntimeException e) {
            listener.error(ErrorMapping.toFlight(e));
        }
    }

    @Override
    public void getStreamTypeInfo(CommandGetXdbcTypeInfo command, CallContext context, ServerStreamListener listener)
    {
        MetadataBatches.send(allocator, Schemas.GET_TYPE_INFO_SCHEMA, sessions.session(context).catalogs().typeInfo(command.hasDataType() ? command.getDataType() : null), listener);
    }

    @Override
    public void getStreamCatalogs(CallContext context, ServerStreamListener listener)
    {
        rows(listener, Schemas.GET_CATALOGS_SCHEMA, rows -> {
            for (String catalog : sessions.session(context).catalogs().catalogs()) {
                rows.accept(List.of(catalog));
            }
        });
    }

    @Override
    public void getStreamSchemas(CommandGetDbSchemas command, CallContext context, ServerStreamListener listener)
    {
        rows(listener, Schemas.GET_SCHEMAS_SCHEMA, rows -> {
            CatalogBrowser browser = sessions.session(context).catalogs();
            String requested = command.hasCatalog() ? command.getCatalog() : null;
            for (String catalog : catalogs(browser, requested)) {
                listCatalog(requested, catalog, rows, catalogRows -> {
                    for (String schema : matching(command.hasDbSchemaFilterPattern() ? command.getDbSchemaFilterPattern() : null, browser.schemas(catalog))) {
                        catalogRows.accept(List.of(catalog, schema));
                    }
                });
            }
        });
    }

    @Override
    public void getStreamTables(CommandGetTables command, CallContext context, ServerStreamListener listener)
    {
        boolean includeSchema = command.getIncludeSchema();
        Schema resultSchema = includeSchema ? Schemas.GET_TABLES_SCHEMA : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA;
        rows(listener, resultSchema, rows -> {
            boolean tables = command.getTableTypesList().isEmpty() || command.getTableTypesList().contains(TABLE_TYPE);
            boolean views = command.getTableTypesList().isEmpty() || command.getTableTypesList().contains(VIEW_TYPE);
            if (!tables && !views) {
                return;
            }
            String tablePattern = command.hasTableNameFilterPattern() ? command.getTableNameFilterPattern() : null;
            CatalogBrowser browser = sessions.session(context).catalogs();
            String requested = command.hasCatalog() ? command.getCatalog() : null;
            for (String catalog : catalogs(browser, requested)) {
                listCatalog(requested, catalog, rows, catalogRows -> {
                    for (String schema : matching(command.hasDbSchemaFilterPattern() ? command.getDbSchemaFilterPattern() : null, browser.schemas(catalog))) {
                        // by type, then name, as JDBC's getTables orders them
                        for (String table : tables ? matching(tablePattern, browser.tables(catalog, schema)) : List.<String>of()) {
                            List<Object> row = new ArrayList<>(List.of(catalog, schema, table, TABLE_TYPE));
                            if (includeSchema) {
                                TableHandle handle = browser.table(catalog, schema, table)
                                        .orElseThrow(() -> new OntulException(ErrorCode.NOT_FOUND, "Table '" + catalog + "." + schema + "." + table + "' does not exist"));
                                row.add(serialize(ColumnTypes.describe(catalog, schema, table, handle.columns())).toByteArray());
                            }
                            catalogRows.accept(row);
                        }
                        for (String view : views ? matching(tablePattern, browser.views(catalog, schema)) : List.<String>of()) {
                            List<Object> row = new ArrayList<>(List.of(catalog, schema, view, VIEW_TYPE));
                            if (includeSchema) {
                                Schema columns = browser.viewColumns(catalog, schema, view)
                                        .orElseThrow(() -> new OntulException(ErrorCode.NOT_FOUND, "View '" + catalog + "." + schema + "." + view + "' does not exist"));
                                row.add(serialize(ColumnTypes.describe(catalog, schema, view, columns)).toByteArray());
                            }
                            catalogRows.accept(row);
                        }
                    }
                });
            }
        });
    }

    @Override
    public void getStreamTableTypes(CallContext context, ServerStreamListener listener)
    {
        MetadataBatches.send(allocator, Schemas.GET_TABLE_TYPES_SCHEMA, List.of(List.of(TABLE_TYPE), List.of(VIEW_TYPE)), listener);
    }

    /**
     * A table's primary key is the first unique key its catalog reports whose columns are all
     * NOT NULL (tpch: the TPC-H primary keys), named {@code <table>_pkey}.
     */
    @Override
    public void getStreamPrimaryKeys(CommandGetPrimaryKeys command, CallContext context, ServerStreamListener listener)
    {
        rows(listener, Schemas.GET_PRIMARY_KEYS_SCHEMA, rows -> {
            CatalogBrowser browser = sessions.session(context).catalogs();
            for (String catalog : catalogs(browser, command.hasCatalog() ? command.getCatalog() : null)) {
                List<String> schemas = browser.schemas(catalog);
                if (command.hasDbSchema()) {
                    schemas = named(command.getDbSchema(), schemas);
                }
                for (String schema : schemas) {
                    List<String> tables = named(command.getTable(), browser.tables(catalog, schema));
                    if (tables.isEmpty()) {
                        continue;
                    }
                    String table = tables.get(0);
                    browser.table(catalog, schema, table)
                            .flatMap(TableHandle::primaryKey)
                            .ifPresent(key -> {
                                for (int column = 0; column < key.size(); column++) {
                                    rows.accept(List.of(catalog, schema, table, key.get(column), column + 1, table + "_pkey"));
                                }
                            });
                }
            }
        });
    }

    // No catalog declares foreign keys: these listings are empty, with the spec's schemas.

    @Override
    public void getStreamExportedKeys(CommandGetExportedKeys command, CallContext context, ServerStreamListener listener)
    {
        MetadataBatches.send(allocator, Schemas.GET_EXPORTED_KEYS_SCHEMA, List.of(), listener);
    }

    @Override
    public void getStreamImportedKeys(CommandGetImportedKeys command, CallContext context, ServerStreamListener listener)
    {
        MetadataBatches.send(allocator, Schemas.GET_IMPORTED_KEYS_SCHEMA, List.of(), listener);
    }

    @Override
    public void getStreamCrossReference(CommandGetCrossReference command, CallContext context, ServerStreamListener listener)
    {
        MetadataBatches.send(allocator, Schemas.GET_CROSS_REFERENCE_SCHEMA, List.of(), listener);
    }

    private void rows(ServerStreamListener listener, Schema schema, Consumer<Consumer<List<Object>>> producer)
    {
        List<List<Object>> rows = new ArrayList<>();
        try {
            producer.accept(rows::add);
        }
        catch (RuntimeException e) {
            listener.error(ErrorMapping.toFlight(e));
            return;
        }
        MetadataBatches.send(allocator, schema, rows, listener);
    }

    /**
     * Lists one catalog into {@code rows}. A catalog whose system cannot be reached (a database that
     * is down) is left out of a listing over all catalogs, with a warning, so that one dead system
     * does not empty a client's whole tree; asked for by name, its error is the answer.
     */
    private static void listCatalog(String requested, String catalog, Consumer<List<Object>> rows, Consumer<Consumer<List<Object>>> listing)
    {
        List<List<Object>> catalogRows = new ArrayList<>();
        try {
            listing.accept(catalogRows::add);
        }
        catch (OntulException e) {
            if (requested != null || e.category() != ErrorCategory.EXTERNAL) {
                throw e;
            }
            LOG.warn("Catalog '{}' left out of a metadata listing: {}", catalog, e.getMessage());
            return;
        }
        catalogRows.forEach(rows);
    }

    private static List<String> catalogs(CatalogBrowser browser, String catalog)
    {
        List<String> names = browser.catalogs();
        return catalog == null ? names : named(catalog, names);
    }

    /**
     * The names a LIKE pattern of a metadata request matches; if none matches it as written, those
     * it matches folded to lower case, as SQL folds an unquoted name. Drivers that report
     * upper-case identifiers (Arrow's, with Avatica's defaults) send {@code NATION} for
     * {@code nation}; a name quoted in mixed case still matches as written.
     */
    private static List<String> matching(String pattern, List<String> names)
    {
        if (pattern == null) {
            return names;
        }
        List<String> matched = names.stream().filter(name -> matches(pattern, name)).toList();
        String folded = pattern.toLowerCase(Locale.ROOT);
        if (!matched.isEmpty() || folded.equals(pattern)) {
            return matched;
        }
        return names.stream().filter(name -> matches(folded, name)).toList();
    }

    /** The name as written if it is one of {@code names}, else folded to lower case if that is; else none. */
    private static List<String> named(String name, List<String> names)
    {
        if (names.contains(name)) {
            return List.of(name);
        }
        String folded = name.toLowerCase(Locale.ROOT);
        return names.contains(folded) ? List.of(folded) : List.of();
    }

    private static boolean matches(String pattern, String name)
    {
        return pattern == null || CatalogBrowser.like(pattern, SEARCH_ESCAPE).test(name);
    }

    static ByteString serialize(Schema schema)
    {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            MessageSerializer.serialize(new WriteChannel(Channels.newChannel(bytes)), schema);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ByteString.copyFrom(bytes.toByteArray());
    }

    private static <T> T mapErrors(Supplier<T> call)
    {
        try {
            return call.get();
        }
        catch (RuntimeException | StackOverflowError e) {
            throw ErrorMapping.toFlight(e);
        }
    }

    // ---- session options

    @Override
    public void setSessionOptions(SetSessionOptionsRequest request, CallContext context, StreamListener<SetSessionOptionsResult> listener)
    {
        try {
            listener.onNext(sessionOptions.set(sessions.session(context), request.getSessionOptions()));
            listener.onCompleted();
        }
        catch (RuntimeException e) {
            listener.onError(ErrorMapping.toFlight(e));
        }
    }

    @Override
    public void getSessionOptions(GetSessionOptionsRequest request, CallContext context, StreamListener<GetSessionOptionsResult> listener)
    {
        try {
            listener.onNext(sessionOptions.get(sessions.session(context)));
            listener.onCompleted();
        }
        catch (RuntimeException e) {
            listener.onError(ErrorMapping.toFlight(e));
        }
    }

    /**
     * Forgets the connection's session with its prepared statements and results (streaming
     * ones are cancelled); the connection's next call starts a new session.
     */
    @Override
    public void closeSession(CloseSessionRequest request, CallContext context, StreamListener<CloseSessionResult> listener)
    {
        try {
            sessions.close(context).ifPresent(this::closeHandles);
            listener.onNext(new CloseSessionResult(CloseSessionResult.Status.CLOSED));
            listener.onCompleted();
        }
        catch (RuntimeException e) {
            listener.onError(ErrorMapping.toFlight(e));
        }
    }

    @Override
    public void close()
    {
        preparedStatements.close();
        pendingResults.close();
        for (AutoCloseable resource : closeWith) {
            try {
                resource.close();
            }
            catch (Exception e) {
                LOG.warn("Closing {} failed: {}", resource, e.getMessage());
            }
        }
    }

    /** Prepared statements and parked results, for tests and the server's status. */
    public int openHandles()
    {
        return preparedStatements.size() + pendingResults.size();
    }
}
