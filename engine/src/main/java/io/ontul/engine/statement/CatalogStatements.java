package io.ontul.engine.statement;

import static io.ontul.engine.statement.StatementContext.position;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.ontul.engine.api.CatalogBrowser;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.plan.LogicalPlanner;
import io.ontul.engine.sql.tree.SqlCreateCatalog;
import io.ontul.engine.sql.tree.SqlDropCatalog;
import io.ontul.engine.sql.tree.SqlProperties;
import io.ontul.engine.sql.tree.SqlShowCatalogs;
import io.ontul.engine.sql.tree.SqlShowColumns;
import io.ontul.engine.sql.tree.SqlShowSchemas;
import io.ontul.engine.sql.tree.SqlShowTables;
import io.ontul.engine.type.ArrowTypes;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;

/**
 * Catalogs and what they hold: CREATE and DROP CATALOG (administrators), SHOW CATALOGS, SHOW
 * SCHEMAS, SHOW TABLES (listed by the session's {@link CatalogBrowser}, as Flight SQL's metadata
 * calls are), SHOW COLUMNS and DESCRIBE.
 */
final class CatalogStatements
{
    QueryResult createCatalog(SqlCreateCatalog create, StatementContext context)
    {
        context.requireAdmin("CREATE CATALOG", create.getParserPosition());
        Map<String, String> properties = SqlProperties.text(create.properties());
        context.engine().catalogs().create(create.name().getSimple(), create.connector().getSimple(), properties, context.session().user(), create.ifNotExists());
        return context.updateCount(0);
    }

    QueryResult dropCatalog(SqlDropCatalog drop, StatementContext context)
    {
        context.requireAdmin("DROP CATALOG", drop.getParserPosition());
        if (!context.engine().catalogs().drop(drop.name().getSimple()) && !drop.ifExists()) {
            throw new OntulException(ErrorCode.NOT_FOUND, position(drop.name().getParserPosition()) + "Catalog '" + drop.name().getSimple() + "' does not exist");
        }
        context.grants().ifPresent(grants -> grants.dropped(io.ontul.engine.security.Securable.catalog(drop.name().getSimple())));
        return context.updateCount(0);
    }

    QueryResult showCatalogs(SqlShowCatalogs show, StatementContext context)
    {
        return listing(context, "catalog", filter(context.session().catalogs().catalogs(), show.likePattern()));
    }

    QueryResult showSchemas(SqlShowSchemas show, StatementContext context)
    {
        String catalog = show.catalog().map(id -> id.names.get(0)).orElseGet(context::defaultCatalog);
        SqlParserPos pos = show.catalog().map(SqlNode::getParserPosition).orElse(show.getParserPosition());
        context.connector(catalog, pos);
        return listing(context, "schema", filter(context.session().catalogs().schemas(catalog), show.likePattern()));
    }

    QueryResult showTables(SqlShowTables show, StatementContext context)
    {
        List<String> names = show.schema().<List<String>>map(id -> id.names).orElse(List.of());
        String catalog = names.size() >= 2 ? names.get(0) : context.defaultCatalog();
        String schema = names.isEmpty() ? context.defaultSchema() : names.get(names.size() - 1);
        SqlParserPos pos = show.schema().map(SqlNode::getParserPosition).orElse(show.getParserPosition());
        context.connector(catalog, pos);
        CatalogBrowser browser = context.session().catalogs();
        if (!browser.schemaExists(catalog, schema)) {
            throw new OntulException(ErrorCode.NOT_FOUND, position(pos) + "Schema '" + catalog + "." + schema + "' does not exist");
        }
        // views too, as in Trino and PostgreSQL's \\d
        List<String> tables = new ArrayList<>(browser.tables(catalog, schema));
        tables.addAll(browser.views(catalog, schema));
        return listing(context, "table", filter(tables.stream().sorted().distinct().toList(), show.likePattern()));
    }

    QueryResult showColumns(SqlShowColumns show, StatementContext context)
    {
        return describe(show.table(), context);
    }

    QueryResult describeTable(SqlDescribeTable describe, StatementContext context)
    {
        return describe(describe.getTable(), context);
    }

    private static QueryResult describe(SqlIdentifier identifier, StatementContext context)
    {
        List<String> name = context.qualify(identifier);
        Connector connector = context.connector(name.get(0), identifier.getParserPosition());
        java.util.Optional<org.apache.arrow.vector.types.pojo.Schema> columns = connector.metadata().getTable(name.get(1), name.get(2)).map(TableHandle::columns);
        if (columns.isEmpty() && name.get(1).equals(io.ontul.engine.system.InformationSchema.SCHEMA) && !connector.metadata().listSchemas().contains(name.get(1))) {
            // the catalog's information_schema, which SQL reads and the listings show
            columns = io.ontul.engine.system.InformationSchema.tableColumns(name.get(2));
        }
        if (columns.isEmpty()) {
            columns = context.view(name).map(io.ontul.engine.metadata.StoredView::columns);
        }
        if (columns.isEmpty() || !context.access().canSee(io.ontul.engine.security.Securable.table(name.get(0), name.get(1), name.get(2)))) {
            // as if it did not exist to a user who cannot see it, as in the listings
            throw new OntulException(ErrorCode.NOT_FOUND, position(identifier.getParserPosition()) + "Table '" + String.join(".", name) + "' does not exist");
        }
        LogicalPlanner planner = context.planner();
        List<List<String>> rows = new ArrayList<>();
        for (Field field : columns.get().getFields()) {
            RelDataType type = ArrowTypes.toRelType(planner.typeFactory(), field);
            rows.add(List.of(field.getName(), ArrowTypes.sqlName(type), field.isNullable() ? "YES" : "NO"));
        }
        return context.text(List.of("column_name", "data_type", "is_nullable"), rows);
    }

    /** The names a SHOW's LIKE pattern matches (no escape character), in the browser's order. */
    private static List<String> filter(List<String> names, Optional<String> likePattern)
    {
        if (likePattern.isEmpty()) {
            return names;
        }
        Predicate<String> matches = CatalogBrowser.like(likePattern.get(), null);
        return names.stream().filter(matches).toList();
    }

    private static QueryResult listing(StatementContext context, String column, List<String> values)
    {
        return context.text(List.of(column), values.stream().map(List::of).toList());
    }
}
