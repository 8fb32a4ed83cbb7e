package io.ontul.engine.statement;

import static io.ontul.engine.statement.StatementContext.position;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlCreateView;
import org.apache.calcite.sql.ddl.SqlDropView;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.metadata.StoredView;
import io.ontul.engine.security.Privilege;
import io.ontul.engine.security.Securable;
import io.ontul.engine.sql.tree.SqlShowCreateView;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * CREATE [OR REPLACE] VIEW, DROP VIEW and SHOW CREATE VIEW. Ontul keeps every view in its
 * metadata store ({@link io.ontul.engine.catalog.CatalogManager#views}): the statement as
 * written, the creating session's catalog and schema, the columns, and the owner, whose rights
 * the view reads its tables with. The definition is planned when the view is created (so a view
 * that cannot run is refused then), and again wherever a query reads the view.
 */
final class ViewStatements
{
    QueryResult create(SqlCreateView create, StatementContext context)
    {
        SqlIdentifier name = create.name;
        List<String> qualified = context.qualify(name);
        String qualifiedName = String.join(".", qualified);
        Connector connector = context.connector(qualified.get(0), name.getParserPosition());
        if (!connector.metadata().listSchemas().contains(qualified.get(1)) && connector.metadata().listTables(qualified.get(1)).isEmpty()) {
            throw new OntulException(ErrorCode.NOT_FOUND, position(name.getParserPosition()) + "Schema '" + qualified.get(0) + "." + qualified.get(1) + "' does not exist");
        }
        context.check(Privilege.CREATE, Securable.schema(qualified.get(0), qualified.get(1)), name.getParserPosition());
        if (connector.metadata().getTable(qualified.get(1), qualified.get(2)).isPresent()) {
            throw new OntulException(ErrorCode.ALREADY_EXISTS, position(name.getParserPosition()) + "Table '" + qualifiedName + "' already exists (a view cannot replace a table)");
        }
        Securable securable = Securable.table(qualified.get(0), qualified.get(1), qualified.get(2));
        Optional<StoredView> existing = context.view(qualified);
        if (existing.isPresent()) {
            if (!create.getReplace()) {
                throw new OntulException(ErrorCode.ALREADY_EXISTS, position(name.getParserPosition()) + "View '" + qualifiedName + "' already exists");
            }
            context.check(Privilege.DROP, securable, name.getParserPosition());
        }
        // planned as the creating user reads it: it must be allowed to read what the view reads
        PlannedQuery planned = context.plan(create.query);
        if (planned.viewsRead().contains(qualifiedName)) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(create.query.getParserPosition()) + "View '" + qualifiedName + "' cannot read itself");
        }
        Schema columns = columns(create, planned.schema(), qualifiedName);
        StoredView view = new StoredView(qualified.get(0), qualified.get(1), qualified.get(2), context.sql(),
                Optional.ofNullable(context.session().catalog()), Optional.ofNullable(context.session().schema()),
                columns, context.access().user(), Instant.now());
        if (!context.engine().catalogs().views().create(view, create.getReplace())) {
            throw new OntulException(ErrorCode.ALREADY_EXISTS, position(name.getParserPosition()) + "View '" + qualifiedName + "' already exists");
        }
        if (existing.isEmpty()) {
            context.grants().ifPresent(grants -> grants.created(securable, context.access().user()));
        }
        return context.updateCount(0);
    }

    /** The query's columns, named by the column list where there is one; names must differ. */
    private static Schema columns(SqlCreateView create, Schema queried, String view)
    {
        List<Field> fields = new ArrayList<>();
        if (create.columnList != null && create.columnList.size() != queried.getFields().size()) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(create.columnList.getParserPosition()) + "View '" + view + "' names "
                    + create.columnList.size() + " column" + (create.columnList.size() == 1 ? "" : "s") + " but its query returns " + queried.getFields().size());
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < queried.getFields().size(); i++) {
            Field field = queried.getFields().get(i);
            SqlNode named = create.columnList == null ? null : create.columnList.get(i);
            String name = named == null ? field.getName() : ((SqlIdentifier) named).getSimple();
            if (!names.add(name)) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(named == null ? create.query.getParserPosition() : named.getParserPosition())
                        + "View '" + view + "' has two columns named '" + name + "': give them different names (AS alias, or a column list after the view's name)");
            }
            fields.add(new Field(name, field.getFieldType(), field.getChildren()));
        }
        return new Schema(fields);
    }

    QueryResult drop(SqlDropView drop, StatementContext context)
    {
        List<String> qualified = context.qualify(drop.name);
        String qualifiedName = String.join(".", qualified);
        Connector connector = context.connector(qualified.get(0), drop.name.getParserPosition());
        if (context.view(qualified).isEmpty()) {
            if (connector.metadata().getTable(qualified.get(1), qualified.get(2)).isPresent()) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(drop.name.getParserPosition()) + "'" + qualifiedName + "' is a table, not a view: use DROP TABLE");
            }
            if (drop.ifExists) {
                return context.updateCount(0);
            }
            throw new OntulException(ErrorCode.NOT_FOUND, position(drop.name.getParserPosition()) + "View '" + qualifiedName + "' does not exist");
        }
        Securable view = Securable.table(qualified.get(0), qualified.get(1), qualified.get(2));
        context.check(Privilege.DROP, view, drop.name.getParserPosition());
        context.engine().catalogs().views().delete(qualified.get(0), qualified.get(1), qualified.get(2));
        context.grants().ifPresent(grants -> grants.dropped(view));
        return context.updateCount(0);
    }

    QueryResult showCreate(SqlShowCreateView show, StatementContext context)
    {
        List<String> qualified = context.qualify(show.view());
        context.connector(qualified.get(0), show.view().getParserPosition());
        Optional<StoredView> view = context.view(qualified)
                .filter(found -> context.access().canSee(Securable.table(found.catalog(), found.schema(), found.name())));
        if (view.isEmpty()) {
            throw new OntulException(ErrorCode.NOT_FOUND, position(show.view().getParserPosition()) + "View '" + String.join(".", qualified) + "' does not exist");
        }
        return context.text(List.of("create_view"), List.of(List.of(view.get().definition())));
    }
}
