package io.ontul.jdbc;

import static java.util.Objects.requireNonNull;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A connection of Arrow's driver seen through Ontul's. Statements, prepared statements and
 * metadata come wrapped; the current catalog and schema are kept here and set on the server
 * with {@code USE catalog.schema}, since Ontul has no Flight SQL session options and its
 * {@code USE} sets a catalog only together with a schema.
 */
final class ConnectionHandler
        extends ForwardingHandler<Connection>
{
    private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private final OntulUrl url;
    private volatile String catalog;
    private volatile String schema;
    private volatile boolean readOnly;
    /**
     * Statements made on this connection, to cancel what they run when the connection closes:
     * Arrow's driver shuts its channel down gracefully, waiting for running calls, so without this
     * closing a connection (a BI tool's tab) would leave its query running on the server. Weak:
     * closed statements are forgotten.
     */
    private final java.util.Set<Statement> statements = java.util.Collections.synchronizedSet(java.util.Collections.newSetFromMap(new java.util.WeakHashMap<>()));

    private ConnectionHandler(Connection delegate, OntulUrl url)
    {
        super(delegate);
        this.url = requireNonNull(url, "url is null");
    }

    /** Wraps a fresh connection and selects the URL's catalog and schema. */
    static Connection open(Connection arrowConnection, OntulUrl url)
            throws SQLException
    {
        ConnectionHandler handler = new ConnectionHandler(arrowConnection, url);
        Connection connection = proxy(Connection.class, handler);
        if (url.catalog().isPresent()) {
            handler.catalog = handler.requireCatalog(url.catalog().get());
        }
        if (url.schema().isPresent()) {
            handler.use(url.schema().get());
        }
        return connection;
    }

    @Override
    protected Object handle(Object proxy, Method method, Object[] arguments)
            throws Throwable
    {
        Connection connection = (Connection) proxy;
        switch (method.getName()) {
            case "createStatement":
                checkOpen();
                return remember(new OntulStatement(connection, delegate(), !url.arrowResults()));
            case "prepareStatement":
                return remember(PreparedStatementHandler.wrap((PreparedStatement) forward(method, arguments), connection, null, !url.arrowResults()));
            case "close":
                cancelStatements();
                return forward(method, arguments);
            case "prepareCall":
                throw new SQLFeatureNotSupportedException("Ontul has no stored procedures");
            case "getMetaData":
                return DatabaseMetaDataHandler.wrap((DatabaseMetaData) forward(method, arguments), connection, url);
            case "getCatalog":
                checkOpen();
                return catalog;
            case "setCatalog":
                setCatalog((String) arguments[0]);
                return null;
            case "getSchema":
                checkOpen();
                return schema;
            case "setSchema":
                checkOpen();
                use((String) arguments[0]);
                return null;
            case "isReadOnly":
                checkOpen();
                return readOnly;
            case "setReadOnly":
                checkOpen();
                readOnly = (Boolean) arguments[0];
                return null;
            default:
                return forward(method, arguments);
        }
    }

    private <T extends Statement> T remember(T statement)
    {
        statements.add(statement);
        return statement;
    }

    /** Asks the server to stop whatever the connection's statements still run. */
    private void cancelStatements()
    {
        List<Statement> open;
        synchronized (statements) {
            open = List.copyOf(statements);
            statements.clear();
        }
        for (Statement statement : open) {
            try {
                if (!statement.isClosed()) {
                    statement.cancel();
                }
            }
            catch (SQLException | RuntimeException e) {
                // closing anyway: a statement that cannot be cancelled has nothing running
            }
        }
    }

    private void checkOpen()
            throws SQLException
    {
        if (delegate().isClosed()) {
            throw new SQLException("Connection is closed", "08003");
        }
    }

    private synchronized void setCatalog(String newCatalog)
            throws SQLException
    {
        checkOpen();
        if (newCatalog == null || newCatalog.equals(catalog)) {
            return;
        }
        catalog = requireCatalog(newCatalog);
        if (schema != null) {
            use(schema);
        }
    }

    private synchronized void use(String newSchema)
            throws SQLException
    {
        if (newSchema == null) {
            return;
        }
        String target = catalog == null ? identifier(newSchema) : identifier(catalog) + "." + identifier(newSchema);
        try (Statement statement = new OntulStatement(delegate(), delegate(), false)) {
            statement.execute("USE " + target);
        }
        schema = canonical(newSchema);
    }

    /** The catalog's name as the server spells it; fails when there is no such catalog. */
    private String requireCatalog(String name)
            throws SQLException
    {
        String wanted = canonical(name);
        try (ResultSet catalogs = delegate().getMetaData().getCatalogs()) {
            while (catalogs.next()) {
                if (wanted.equals(catalogs.getString(1))) {
                    return wanted;
                }
            }
        }
        catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        }
        throw new SQLException("Catalog '" + name + "' does not exist", "3D000");
    }

    /** Plain names fold to lower case as unquoted SQL identifiers do; others stay as given. */
    private static String canonical(String name)
    {
        return PLAIN_IDENTIFIER.matcher(name).matches() ? name.toLowerCase(Locale.ROOT) : name;
    }

    private static String identifier(String name)
    {
        return "\"" + canonical(name).replace("\"", "\"\"") + "\"";
    }
}
