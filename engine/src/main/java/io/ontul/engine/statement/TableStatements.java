package io.ontul.engine.statement;

import static io.ontul.engine.statement.StatementContext.position;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlCreateTable;
import org.apache.calcite.sql.ddl.SqlDropSchema;
import org.apache.calcite.sql.ddl.SqlDropTable;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.plan.LogicalPlanner;
import io.ontul.engine.security.Privilege;
import io.ontul.engine.security.Securable;
import io.ontul.engine.sql.tree.SqlCreateSchemaWithProperties;
import io.ontul.engine.sql.tree.SqlCreateTableWithProperties;
import io.ontul.engine.sql.tree.SqlProperties;
import io.ontul.engine.type.ArrowTypes;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/** DDL on tables and schemas: CREATE TABLE [AS], DROP TABLE, CREATE SCHEMA, DROP SCHEMA. */
final class TableStatements
{
    QueryResult createTable(SqlCreateTable create, StatementContext context)
    {
        SqlIdentifier name = create.name;
        List<String> qualified = context.qualify(name);
        Connector connector = context.connector(qualified.get(0), name.getParserPosition());
        context.check(Privilege.CREATE, Securable.schema(qualified.get(0), qualified.get(1)), name.getParserPosition());
        Securable created = Securable.table(qualified.get(0), qualified.get(1), qualified.get(2));
        if (connector.metadata().getTable(qualified.get(1), qualified.get(2)).isPresent()) {
            if (create.ifNotExists) {
                return context.updateCount(0);
            }
            throw new OntulException(ErrorCode.ALREADY_EXISTS, position(name.getParserPosition()) + "Table '" + String.join(".", qualified) + "' already exists");
        }
        if (context.view(qualified).isPresent()) {
            throw new OntulException(ErrorCode.ALREADY_EXISTS, position(name.getParserPosition()) + "View '" + String.join(".", qualified) + "' already exists (a table cannot replace a view)");
        }
        if (create.query == null) {
            LogicalPlanner planner = context.planner();
            List<Field> fields = new ArrayList<>();
            SqlNodeList columns = create.columnList;
            if (columns == null) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(name.getParserPosition()) + "CREATE TABLE needs a column list or AS query");
            }
            for (SqlNode column : columns) {
                SqlColumnDeclaration declaration = (SqlColumnDeclaration) column;
                RelDataType type = declaration.dataType.deriveType(planner.validator());
                boolean nullable = declaration.dataType.getNullable() == null || declaration.dataType.getNullable();
                type = planner.typeFactory().createTypeWithNullability(type, nullable);
                fields.add(ArrowTypes.toField(declaration.name.getSimple(), type));
            }
            connector.metadata().createTable(qualified.get(1), qualified.get(2), new Schema(fields), tableProperties(create));
            context.grants().ifPresent(grants -> grants.created(created, context.access().user()));
            return context.updateCount(0);
        }
        PlannedQuery planned = context.plan(create.query);
        List<Field> fields = new ArrayList<>();
        for (Field field : planned.schema().getFields()) {
            fields.add(new Field(field.getName(), new FieldType(true, field.getType(), null, field.getMetadata()), null));
        }
        // the connector creates the table when the rows commit (Iceberg: in the same commit), so
        // a failure or a crash while writing leaves no table behind
        Schema columns = new Schema(fields);
        long rows = context.write(qualified.get(0), () -> connector.createTableAs(qualified.get(1), qualified.get(2), columns, tableProperties(create)), columns, planned);
        context.grants().ifPresent(grants -> grants.created(created, context.access().user()));
        return context.updateCount(rows);
    }

    private static Map<String, Object> tableProperties(SqlCreateTable create)
    {
        return create instanceof SqlCreateTableWithProperties withProperties ? SqlProperties.values(withProperties.properties()) : Map.of();
    }

    QueryResult dropTable(SqlDropTable drop, StatementContext context)
    {
        List<String> qualified = context.qualify(drop.name);
        Connector connector = context.connector(qualified.get(0), drop.name.getParserPosition());
        if (connector.metadata().getTable(qualified.get(1), qualified.get(2)).isEmpty()) {
            if (context.view(qualified).isPresent()) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(drop.name.getParserPosition()) + "'" + String.join(".", qualified) + "' is a view, not a table: use DROP VIEW");
            }
            if (drop.ifExists) {
                return context.updateCount(0);
            }
            throw new OntulException(ErrorCode.NOT_FOUND, position(drop.name.getParserPosition()) + "Table '" + String.join(".", qualified) + "' does not exist");
        }
        Securable table = Securable.table(qualified.get(0), qualified.get(1), qualified.get(2));
        context.check(Privilege.DROP, table, drop.name.getParserPosition());
        connector.metadata().dropTable(qualified.get(1), qualified.get(2));
        context.grants().ifPresent(grants -> grants.dropped(table));
        return context.updateCount(0);
    }

    QueryResult createSchema(SqlCreateSchemaWithProperties create, StatementContext context)
    {
        List<String> names = create.name().names;
        String catalog = names.size() >= 2 ? names.get(names.size() - 2) : context.defaultCatalog();
        String schema = names.get(names.size() - 1);
        Connector connector = context.connector(catalog, create.name().getParserPosition());
        context.check(Privilege.CREATE, Securable.catalog(catalog), create.name().getParserPosition());
        if (connector.metadata().listSchemas().contains(schema)) {
            if (create.ifNotExists()) {
                return context.updateCount(0);
            }
            throw new OntulException(ErrorCode.ALREADY_EXISTS, position(create.name().getParserPosition()) + "Schema '" + catalog + "." + schema + "' already exists");
        }
        connector.metadata().createSchema(schema, SqlProperties.values(create.properties()));
        context.grants().ifPresent(grants -> grants.created(Securable.schema(catalog, schema), context.access().user()));
        return context.updateCount(0);
    }

    QueryResult dropSchema(SqlDropSchema drop, StatementContext context)
    {
        List<String> names = drop.name.names;
        String catalog = names.size() >= 2 ? names.get(names.size() - 2) : context.defaultCatalog();
        String schema = names.get(names.size() - 1);
        Connector connector = context.connector(catalog, drop.name.getParserPosition());
        if (!connector.metadata().listSchemas().contains(schema)) {
            if (drop.ifExists) {
                return context.updateCount(0);
            }
            throw new OntulException(ErrorCode.NOT_FOUND, position(drop.name.getParserPosition()) + "Schema '" + catalog + "." + schema + "' does not exist");
        }
        context.check(Privilege.DROP, Securable.schema(catalog, schema), drop.name.getParserPosition());
        List<String> views = context.engine().catalogs().views().list(catalog, schema).stream().map(io.ontul.engine.metadata.StoredView::name).toList();
        if (!views.isEmpty()) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(drop.name.getParserPosition()) + "Schema '" + catalog + "." + schema + "' still has views: "
                    + String.join(", ", views) + " (drop them first)");
        }
        connector.metadata().dropSchema(schema);
        context.grants().ifPresent(grants -> grants.dropped(Securable.schema(catalog, schema)));
        return context.updateCount(0);
    }
}
