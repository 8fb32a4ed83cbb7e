package io.ontul.engine.statement;

import java.util.List;
import java.util.function.Supplier;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.plan.LogicalPlanner;
import io.ontul.engine.sql.parser.SqlPositions;
import io.ontul.spi.BatchSink;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;

/**
 * What a {@link StatementHandler} sees of the statement it runs: its session, the names it
 * resolves against the session's defaults, planning and running under the statement's entry in
 * the query registry (its slot, deadline, memory limit and cancellation), and its results. The
 * statement executor implements it, one instance per statement.
 */
public interface StatementContext
{
    Session session();

    default Engine engine()
    {
        return session().engine();
    }

    String queryId();

    /** The statement's text, for what keeps it (streaming job definitions) and error messages. */
    String sql();

    // ---- names

    default String defaultCatalog()
    {
        if (session().catalog() == null) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "No catalog selected: qualify the name (catalog.schema) or run USE catalog.schema");
        }
        return session().catalog();
    }

    default String defaultSchema()
    {
        if (session().schema() == null) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "No schema selected: qualify the name (catalog.schema) or run USE catalog.schema");
        }
        return session().schema();
    }

    /** catalog, schema, table of an identifier, using the session defaults for missing parts. */
    default List<String> qualify(SqlIdentifier identifier)
    {
        List<String> names = identifier.names;
        return switch (names.size()) {
            case 1 -> List.of(defaultCatalog(), defaultSchema(), names.get(0));
            case 2 -> List.of(defaultCatalog(), names.get(0), names.get(1));
            default -> List.of(names.get(names.size() - 3), names.get(names.size() - 2), names.get(names.size() - 1));
        };
    }

    /** @throws OntulException NOT_FOUND at {@code pos} when there is no such catalog */
    default Connector connector(String catalog, SqlParserPos pos)
    {
        return engine().catalogs().get(catalog)
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_FOUND, position(pos) + "Catalog '" + catalog + "' does not exist"));
    }

    /**
     * @throws OntulException NOT_FOUND at the identifier when there is no such table,
     *         INVALID_ARGUMENT when it names a view
     */
    default TableHandle table(SqlIdentifier identifier)
    {
        List<String> name = qualify(identifier);
        Connector connector = connector(name.get(0), identifier.getParserPosition());
        return connector.metadata().getTable(name.get(1), name.get(2)).orElseThrow(() -> view(name).isPresent()
                ? new OntulException(ErrorCode.INVALID_ARGUMENT, position(identifier.getParserPosition()) + "'" + String.join(".", name) + "' is a view, not a table: views are read, not written")
                : new OntulException(ErrorCode.NOT_FOUND, position(identifier.getParserPosition()) + "Table '" + String.join(".", name) + "' does not exist"));
    }

    /** The view Ontul keeps under {@code catalog.schema.view}, if there is one. */
    default java.util.Optional<io.ontul.engine.metadata.StoredView> view(List<String> qualified)
    {
        return engine().catalogs().views().get(qualified.get(0), qualified.get(1), qualified.get(2));
    }

    /** @throws OntulException NOT_FOUND at the identifier when there is neither a table nor a view of that name */
    default void requireTableOrView(SqlIdentifier identifier)
    {
        List<String> name = qualify(identifier);
        Connector connector = connector(name.get(0), identifier.getParserPosition());
        if (connector.metadata().getTable(name.get(1), name.get(2)).isEmpty() && view(name).isEmpty()) {
            throw new OntulException(ErrorCode.NOT_FOUND, position(identifier.getParserPosition()) + "Table '" + String.join(".", name) + "' does not exist");
        }
    }

    // ---- access control

    /** What the session's user may do, as the grants stood when the statement began. */
    io.ontul.engine.security.UserAccess access();

    /** Roles and grants, where the engine keeps them (the server); empty when everything is allowed. */
    java.util.Optional<io.ontul.engine.security.Grants> grants();

    /** @throws OntulException PERMISSION_DENIED at {@code pos} unless the user holds {@code privilege} on {@code object} */
    default void check(io.ontul.engine.security.Privilege privilege, io.ontul.engine.security.Securable object, SqlParserPos pos)
    {
        if (!access().isAllowed(privilege, object)) {
            OntulException denied = io.ontul.engine.security.UserAccess.denied(access().user(), privilege, object);
            throw new OntulException(denied.code(), position(pos) + denied.getMessage());
        }
    }

    /** Statements that change what every user sees: administrators only, where there are users. */
    default void requireAdmin(String statement, SqlParserPos pos)
    {
        if (!engine().userManagement().map(users -> users.isAdmin(session().user())).orElse(true)) {
            throw new OntulException(ErrorCode.PERMISSION_DENIED, position(pos)
                    + "Permission denied: " + statement + " needs an administrator; user '" + session().user() + "' is not one");
        }
    }

    /** The {@code line L:C: } prefix of an error at {@code pos}; empty without a position. */
    static String position(SqlParserPos pos)
    {
        return SqlPositions.prefix(pos);
    }

    // ---- planning and running

    /** A planner over the catalogs, with the session's catalog and schema as the default path. */
    LogicalPlanner planner();

    /** Plans a query under the statement's planning deadline. */
    PlannedQuery plan(SqlNode query);

    /** Plans the query an INSERT writes into {@code table}, with its hidden columns left out. */
    PlannedQuery planInsert(SqlInsert insert, TableHandle table, SqlIdentifier target);

    /** Starts a planned query (once admitted) and returns its streaming result. */
    QueryResult run(PlannedQuery planned);

    /**
     * Plans and starts a read-only query. Under {@code retry_policy = 'query'}, a query that loses
     * a worker before it has returned a row is planned and started again, once, on the live workers.
     */
    QueryResult runQuery(SqlNode query);

    /** Runs a planned query to its end, its rows dropped (EXPLAIN ANALYZE). */
    void runToEnd(PlannedQuery planned);

    /**
     * Runs {@code planned} into the sink {@code openSink} opens, with the target's {@code columns};
     * commits the sink at the end, aborts it on any failure; returns the rows written. When the
     * query's rows come from workers and the sink of {@code catalog} takes remote writers, the
     * workers write them and the sink commits what they all wrote.
     */
    long write(String catalog, Supplier<BatchSink> openSink, Schema columns, PlannedQuery planned);

    // ---- results

    QueryResult updateCount(long rows);

    /** Rows of text columns (SHOW, DESCRIBE, EXPLAIN). */
    QueryResult text(List<String> columns, List<List<String>> rows);

    QueryResult rows(List<Field> columns, List<List<Object>> rows);
}
