package io.ontul.server.flight;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.Session;
import io.ontul.spi.BatchSink;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;

/**
 * Flight SQL bulk ingest (DoPut of CommandStatementIngest): the stream's rows go into a table
 * through the catalog's {@link BatchSink}, in one commit, so a stream that fails half way
 * leaves the table as it was. The table is named by the command, with the session's catalog and
 * schema as defaults (and a catalog's only schema when neither says).
 * <p>
 * If the table does not exist it is created from the stream's schema ({@link IngestColumns})
 * when the command says CREATE; it is visible, empty, while the rows arrive, and dropped again
 * if the ingest fails. If it exists, APPEND adds the rows, REPLACE receives the whole stream
 * first and then drops and recreates the table and commits the rows, so a failed stream keeps
 * the old table. Temporary tables, transactions and backend options are not supported.
 */
public final class BulkIngest
{
    private final Engine engine;
    private final BufferAllocator allocator;

    public BulkIngest(Engine engine, BufferAllocator allocator)
    {
        this.engine = requireNonNull(engine, "engine is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /** Runs the ingest and returns the number of rows written. */
    public long ingest(Session session, CommandStatementIngest command, FlightStream stream)
    {
        checkSupported(command);
        TableDefinitionOptions options = command.getTableDefinitionOptions();
        String catalog = command.hasCatalog() ? command.getCatalog() : session.catalog();
        if (catalog == null) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Bulk ingest into '" + command.getTable() + "' names no catalog, and the session has none: set catalog in the command or the session");
        }
        io.ontul.engine.api.CatalogBrowser browser = session.catalogs();
        Connector connector = browser.connector(catalog);
        String schema = schema(command, session, catalog, connector);
        String table = command.getTable();
        String name = catalog + "." + schema + "." + table;

        TableHandle existing = connector.metadata().getTable(schema, table).orElse(null);
        if (existing == null) {
            if (options.getIfNotExist() != TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE) {
                throw new OntulException(ErrorCode.NOT_FOUND, "Table '" + name + "' does not exist (ingest with if_not_exist CREATE to create it)");
            }
            browser.checkCreateTable(catalog, schema);
            Schema columns = IngestColumns.newTable(stream.getSchema());
            // the table appears with its rows (Iceberg: in one commit); a failed stream leaves none
            long rows = write(name, columns, () -> connector.createTableAs(schema, table, columns, Map.of()), stream);
            browser.tableCreated(catalog, schema, table);
            return rows;
        }
        return switch (options.getIfExists()) {
            case TABLE_EXISTS_OPTION_APPEND -> {
                browser.checkTable("INSERT", catalog, schema, table);
                yield write(connector, existing, stream);
            }
            case TABLE_EXISTS_OPTION_REPLACE -> {
                // the rows there go: as DELETE and INSERT would
                browser.checkTable("DELETE", catalog, schema, table);
                browser.checkTable("INSERT", catalog, schema, table);
                yield replace(connector, existing, stream);
            }
            default -> throw new OntulException(ErrorCode.ALREADY_EXISTS, "Table '" + name + "' already exists (ingest with if_exists APPEND or REPLACE to write into it)");
        };
    }

    private static void checkSupported(CommandStatementIngest command)
    {
        if (command.getTable().isEmpty()) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Bulk ingest needs a table name");
        }
        if (command.getTemporary()) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, "Bulk ingest into temporary tables is not supported");
        }
        if (command.hasTransactionId()) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, "Transactions are not supported: every bulk ingest commits on its own");
        }
        if (!command.getOptionsMap().isEmpty()) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Unknown bulk ingest options " + command.getOptionsMap().keySet() + ": Ontul takes none");
        }
        TableDefinitionOptions options = command.getTableDefinitionOptions();
        if (options.getIfNotExist() != TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE && options.getIfNotExist() != TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Bulk ingest needs table_definition_options.if_not_exist: CREATE or FAIL");
        }
        if (options.getIfExists() != TableExistsOption.TABLE_EXISTS_OPTION_FAIL && options.getIfExists() != TableExistsOption.TABLE_EXISTS_OPTION_APPEND
                && options.getIfExists() != TableExistsOption.TABLE_EXISTS_OPTION_REPLACE) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Bulk ingest needs table_definition_options.if_exists: FAIL, APPEND or REPLACE");
        }
    }

    private static String schema(CommandStatementIngest command, Session session, String catalog, Connector connector)
    {
        if (command.hasSchema()) {
            return command.getSchema();
        }
        boolean sessionCatalog = !command.hasCatalog() || catalog.equals(session.catalog());
        if (sessionCatalog && session.schema() != null) {
            return session.schema();
        }
        List<String> schemas = connector.metadata().listSchemas();
        if (schemas.size() == 1) {
            return schemas.get(0);
        }
        throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Bulk ingest into '" + command.getTable() + "' names no schema, and the session has none for catalog '"
                + catalog + "': set schema in the command or the session");
    }

    private long write(Connector connector, TableHandle table, FlightStream stream)
    {
        return write(table.qualifiedName(), table.columns(), () -> connector.createSink(table), stream);
    }

    /** Streams the rows into the sink {@code openSink} opens for table {@code name} with {@code tableColumns}. */
    private long write(String name, Schema tableColumns, Supplier<BatchSink> openSink, FlightStream stream)
    {
        BatchSink sink = writable(name, openSink);
        boolean committed = false;
        try {
            IngestColumns columns = IngestColumns.into(name, tableColumns, stream.getSchema());
            while (stream.next()) {
                try (IngestColumns.ConvertedBatch batch = columns.convert(stream.getRoot(), allocator)) {
                    sink.append(batch.root());
                }
            }
            long rows = sink.commit();
            committed = true;
            return rows;
        }
        finally {
            if (!committed) {
                sink.abort();
            }
        }
    }

    /** Receives every batch before the old table goes, so a failed stream leaves it in place. */
    private long replace(Connector connector, TableHandle existing, FlightStream stream)
    {
        Schema columns = IngestColumns.newTable(stream.getSchema());
        IngestColumns conversion = IngestColumns.into(existing.qualifiedName(), columns, stream.getSchema());
        List<VectorSchemaRoot> received = new ArrayList<>();
        try {
            while (stream.next()) {
                try (IngestColumns.ConvertedBatch batch = conversion.convert(stream.getRoot(), allocator)) {
                    received.add(take(batch.root()));
                }
            }
            writable(existing.qualifiedName(), () -> {
                connector.metadata().dropTable(existing.schema(), existing.table());
                return null;
            });
            BatchSink sink = connector.createTableAs(existing.schema(), existing.table(), columns, Map.of());
            boolean committed = false;
            try {
                for (VectorSchemaRoot batch : received) {
                    sink.append(batch);
                }
                long rows = sink.commit();
                committed = true;
                return rows;
            }
            finally {
                if (!committed) {
                    sink.abort();
                }
            }
        }
        finally {
            received.forEach(VectorSchemaRoot::close);
        }
    }

    /** Takes the batch's buffers over: the stream loads its next batch into new ones. */
    private VectorSchemaRoot take(VectorSchemaRoot batch)
    {
        List<FieldVector> vectors = new ArrayList<>();
        for (FieldVector vector : batch.getFieldVectors()) {
            TransferPair transfer = vector.getTransferPair(allocator);
            transfer.transfer();
            vectors.add((FieldVector) transfer.getTo());
        }
        return new VectorSchemaRoot(batch.getSchema().getFields(), vectors, batch.getRowCount());
    }

    /** Runs a write step, naming the table when the catalog refuses writes. */
    private static <T> T writable(String table, Supplier<T> step)
    {
        try {
            return step.get();
        }
        catch (OntulException e) {
            if (e.code() == ErrorCode.NOT_SUPPORTED) {
                throw new OntulException(ErrorCode.NOT_SUPPORTED, "Cannot ingest into '" + table + "': " + e.getMessage());
            }
            throw e;
        }
    }
}
