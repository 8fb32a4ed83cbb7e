package io.ontul.engine.api;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import io.ontul.engine.catalog.CatalogManager;
import io.ontul.engine.expression.LikeMatcher;
import io.ontul.engine.security.Privilege;
import io.ontul.engine.security.Securable;
import io.ontul.engine.security.UserAccess;
import io.ontul.engine.type.TypeInfo;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;

/**
 * What a session sees of the catalogs ({@link Session#catalogs}): the names SHOW CATALOGS, SHOW
 * SCHEMAS and SHOW TABLES list and Flight SQL's GetCatalogs, GetDbSchemas and GetTables return,
 * sorted, and the tables they describe. Both listings go through here, so they agree.
 * <p>
 * A schema exists when its catalog lists it or lists tables in it (some connectors know tables
 * only). Every catalog also has the {@code information_schema} SQL reads
 * ({@link io.ontul.engine.system.InformationSchema}), listed and described here too, unless the
 * catalog has a schema of that name itself. A catalog that does not exist is a NOT_FOUND error
 * naming it.
 * <p>
 * A user sees what they hold some privilege on, on what contains it or on something inside it
 * ({@link UserAccess#canSee}): to the rest the browser answers as if it did not exist.
 */
public final class CatalogBrowser
{
    private static final String INFORMATION_SCHEMA = io.ontul.engine.sql.CatalogSchemas.INFORMATION_SCHEMA;

    private final CatalogManager catalogs;
    private final UserAccess access;
    private final Optional<io.ontul.engine.security.Grants> grants;

    CatalogBrowser(CatalogManager catalogs, UserAccess access, Optional<io.ontul.engine.security.Grants> grants)
    {
        this.catalogs = requireNonNull(catalogs, "catalogs is null");
        this.access = requireNonNull(access, "access is null");
        this.grants = requireNonNull(grants, "grants is null");
    }

    /** The catalogs, sorted. */
    public List<String> catalogs()
    {
        return sorted(catalogs.names().stream().filter(catalog -> access.canSee(Securable.catalog(catalog))).toList());
    }

    public boolean catalogExists(String catalog)
    {
        return catalogs.get(catalog).isPresent() && access.canSee(Securable.catalog(catalog));
    }

    /** The schemas of a catalog, sorted, with its information_schema. */
    public List<String> schemas(String catalog)
    {
        List<String> schemas = new java.util.ArrayList<>(connector(catalog).metadata().listSchemas());
        if (!schemas.contains(INFORMATION_SCHEMA)) {
            schemas.add(INFORMATION_SCHEMA);
        }
        return sorted(schemas.stream().filter(schema -> access.canSee(Securable.schema(catalog, schema))).toList());
    }

    public boolean schemaExists(String catalog, String schema)
    {
        Optional<Connector> connector = catalogs.get(catalog);
        return connector.isPresent() && access.canSee(Securable.schema(catalog, schema))
                && (schema.equals(INFORMATION_SCHEMA) || connector.get().metadata().listSchemas().contains(schema) || !connector.get().metadata().listTables(schema).isEmpty());
    }

    /** What describes the tables of {@code catalog.schema}: the catalog's connector, or its information schema's. */
    private io.ontul.spi.ConnectorMetadata metadata(String catalog, String schema)
    {
        Connector connector = connector(catalog);
        if (schema.equals(INFORMATION_SCHEMA) && !connector.metadata().listSchemas().contains(INFORMATION_SCHEMA)) {
            return io.ontul.engine.system.InformationSchema.forUser(catalogs.views(), access).apply(catalog, connector).metadata();
        }
        return connector.metadata();
    }

    /** The views Ontul keeps in a schema, sorted; none for a schema that does not exist. */
    public List<String> views(String catalog, String schema)
    {
        connector(catalog);
        return sorted(catalogs.views().list(catalog, schema).stream().map(io.ontul.engine.metadata.StoredView::name)
                .filter(view -> access.canSee(Securable.table(catalog, schema, view))).toList());
    }

    /** The columns of a view, as it was created; empty when there is no such view (or the user cannot see it). */
    public Optional<org.apache.arrow.vector.types.pojo.Schema> viewColumns(String catalog, String schema, String view)
    {
        if (!access.canSee(Securable.table(catalog, schema, view))) {
            return Optional.empty();
        }
        return catalogs.views().get(catalog, schema, view).map(io.ontul.engine.metadata.StoredView::columns);
    }

    /** The tables of a schema, sorted; none for a schema that does not exist. Views are listed by {@link #views}. */
    public List<String> tables(String catalog, String schema)
    {
        return sorted(metadata(catalog, schema).listTables(schema).stream().filter(table -> access.canSee(Securable.table(catalog, schema, table))).toList());
    }

    public Optional<TableHandle> table(String catalog, String schema, String table)
    {
        if (!access.canSee(Securable.table(catalog, schema, table))) {
            return Optional.empty();
        }
        return metadata(catalog, schema).getTable(schema, table);
    }

    /**
     * @throws OntulException PERMISSION_DENIED unless the session's user holds {@code privilege}
     *         on table {@code catalog.schema.table} (for a table a front writes without SQL)
     */
    public void checkTable(String privilege, String catalog, String schema, String table)
    {
        access.check(Privilege.valueOf(privilege), Securable.table(catalog, schema, table));
    }

    /**
     * @throws OntulException PERMISSION_DENIED unless the session's user may create tables in
     *         schema {@code catalog.schema}
     */
    public void checkCreateTable(String catalog, String schema)
    {
        access.check(Privilege.CREATE, Securable.schema(catalog, schema));
    }

    /** The session's user created table {@code catalog.schema.table} without SQL: it gets every privilege on it, as with CREATE TABLE. */
    public void tableCreated(String catalog, String schema, String table)
    {
        grants.ifPresent(found -> found.created(Securable.table(catalog, schema, table), access.user()));
    }

    /**
     * The connector behind a catalog, for what reaches a catalog without SQL: Flight SQL's bulk
     * ingest writes through its sinks.
     */
    public Connector connector(String catalog)
    {
        return catalogs.get(catalog).filter(found -> access.canSee(Securable.catalog(catalog)))
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_FOUND, "Catalog '" + catalog + "' does not exist"));
    }

    /**
     * The SQL types a column can have, as rows of Flight SQL's GetXdbcTypeInfo (and the table
     * {@code system.jdbc.types}); only those of one JDBC type code when {@code dataType} is given.
     */
    public List<List<Object>> typeInfo(Integer dataType)
    {
        return TypeInfo.rows(dataType);
    }

    /**
     * SQL LIKE over names: {@code %} any run, {@code _} one character, {@code escape} (null for
     * none) before either to match it as written.
     */
    public static Predicate<String> like(String pattern, String escape)
    {
        LikeMatcher matcher = LikeMatcher.compile(pattern, escape);
        return matcher::matches;
    }

    private static List<String> sorted(List<String> names)
    {
        return names.stream().sorted().toList();
    }
}
