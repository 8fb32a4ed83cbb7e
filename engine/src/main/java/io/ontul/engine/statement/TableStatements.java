package io.ontul.engine.statement;

import static io.ontul.engine.statement.StatementContext.position;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlCreateTable;
import org.apache.calcite.sql.ddl.SqlKeyConstraint;
import org.apache.calcite.sql.parser.SqlParserPos;
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
import io.ontul.spi.TableConstraints;

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
            List<SqlKeyConstraint> keys = new ArrayList<>();
            for (SqlNode column : columns) {
                if (column instanceof SqlKeyConstraint key) {
                    keys.add(key);
                    continue;
                }
                SqlColumnDeclaration declaration = (SqlColumnDeclaration) column;
                RelDataType type = declaration.dataType.deriveType(planner.validator());
                boolean nullable = declaration.dataType.getNullable() == null || declaration.dataType.getNullable();
                type = planner.typeFactory().createTypeWithNullability(type, nullable);
                Field field = ArrowTypes.toField(declaration.name.getSimple(), type);
                if (declaration.expression != null) {
                    requireSupported(connector, TableConstraints.Kind.DEFAULT, qualified.get(0), declaration.expression.getParserPosition());
                    field = TableConstraints.withDefault(field, defaultValue(declaration, type, planner, context));
                }
                if (fields.stream().anyMatch(existing -> existing.getName().equals(declaration.name.getSimple()))) {
                    throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(declaration.name.getParserPosition()) + "Column '" + declaration.name.getSimple() + "' is declared twice");
                }
                fields.add(field);
            }
            Schema schema = withKeys(fields, keys, connector, qualified.get(0));
            connector.metadata().createTable(qualified.get(1), qualified.get(2), schema, tableProperties(create));
            context.grants().ifPresent(grants -> grants.created(created, context.access().user()));
            return context.updateCount(0);
        }
        PlannedQuery planned = context.plan(create.query);
        List<Field> fields = new ArrayList<>();
        for (Field field : planned.schema().getFields()) {
            fields.add(new Field(field.getName(), new FieldType(true, field.getType(), null, field.getMetadata()), field.getChildren()));
        }
        // the connector creates the table when the rows commit (Iceberg: in the same commit), so
        // a failure or a crash while writing leaves no table behind
        Schema columns = new Schema(fields);
        long rows = context.write(qualified.get(0), () -> connector.createTableAs(qualified.get(1), qualified.get(2), columns, tableProperties(create)), columns, planned);
        context.grants().ifPresent(grants -> grants.created(created, context.access().user()));
        return context.updateCount(rows);
    }

    private static void requireSupported(Connector connector, TableConstraints.Kind kind, String catalog, SqlParserPos pos)
    {
        if (!connector.metadata().supportedConstraints().contains(kind)) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, position(pos) + "Catalog '" + catalog + "' does not support " + kind.sql() + " in CREATE TABLE");
        }
    }

    /**
     * The columns with the keys in the schema's metadata: one PRIMARY KEY at most, whose columns
     * become NOT NULL; every key of existing, distinct columns.
     */
    private static Schema withKeys(List<Field> fields, List<SqlKeyConstraint> keys, Connector connector, String catalog)
    {
        Optional<List<String>> primaryKey = Optional.empty();
        List<List<String>> uniqueKeys = new ArrayList<>();
        for (SqlKeyConstraint key : keys) {
            boolean primary = key.getOperator().getKind() == org.apache.calcite.sql.SqlKind.PRIMARY_KEY;
            requireSupported(connector, primary ? TableConstraints.Kind.PRIMARY_KEY : TableConstraints.Kind.UNIQUE, catalog, key.getParserPosition());
            List<String> columns = new ArrayList<>();
            for (SqlNode node : (SqlNodeList) key.getOperandList().get(1)) {
                String column = ((SqlIdentifier) node).getSimple();
                if (fields.stream().noneMatch(field -> field.getName().equals(column))) {
                    throw new OntulException(ErrorCode.NOT_FOUND, position(node.getParserPosition()) + "Column '" + column + "' of the " + (primary ? "PRIMARY KEY" : "UNIQUE key") + " is not a column of the table");
                }
                if (columns.contains(column)) {
                    throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(node.getParserPosition()) + "Column '" + column + "' is twice in one key");
                }
                columns.add(column);
            }
            if (primary) {
                if (primaryKey.isPresent()) {
                    throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(key.getParserPosition()) + "A table has one PRIMARY KEY; this is a second");
                }
                primaryKey = Optional.of(List.copyOf(columns));
            }
            else if (!uniqueKeys.contains(columns)) {
                uniqueKeys.add(List.copyOf(columns));
            }
        }
        List<String> notNull = primaryKey.orElse(List.of());
        List<Field> withNotNull = fields.stream()
                .map(field -> notNull.contains(field.getName()) && field.isNullable()
                        ? new Field(field.getName(), new FieldType(false, field.getType(), field.getDictionary(), field.getMetadata()), field.getChildren())
                        : field)
                .toList();
        Optional<List<String>> primary = primaryKey;
        uniqueKeys.removeIf(key -> primary.isPresent() && primary.get().equals(key));
        return TableConstraints.withKeys(new Schema(withNotNull), primaryKey, uniqueKeys);
    }

    /** A DEFAULT as SQL text, once it is known to be a value of the column's type that reads no column. */
    private static String defaultValue(SqlColumnDeclaration declaration, RelDataType type, LogicalPlanner planner, StatementContext context)
    {
        String sql = declaration.expression.toSqlString(org.apache.calcite.sql.dialect.CalciteSqlDialect.DEFAULT).getSql().replace('\n', ' ');
        SqlNode check = io.ontul.engine.sql.parser.OntulParser.parse("SELECT CAST((" + sql + ") AS " + ArrowTypes.sqlName(type) + ")");
        try {
            context.planner().validate(check);
        }
        catch (RuntimeException e) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(declaration.expression.getParserPosition()) + "The DEFAULT of column '" + declaration.name.getSimple()
                    + "' is not a value of type " + ArrowTypes.sqlName(type) + ": " + e.getMessage(), e);
        }
        return sql;
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

    /** CREATE [UNIQUE] INDEX: needs CREATE on the table's schema; the catalog keeps it or says it cannot. */
    QueryResult createIndex(io.ontul.engine.sql.tree.SqlCreateIndex create, StatementContext context)
    {
        io.ontul.spi.TableHandle table = context.table(create.table());
        context.check(Privilege.CREATE, Securable.schema(table.catalog(), table.schema()), create.table().getParserPosition());
        List<String> columns = new ArrayList<>();
        for (SqlNode column : create.columns()) {
            String name = ((SqlIdentifier) column).getSimple();
            if (table.columns().getFields().stream().noneMatch(field -> field.getName().equals(name))) {
                throw new OntulException(ErrorCode.NOT_FOUND, position(column.getParserPosition()) + "Column '" + name + "' does not exist in table '" + table.qualifiedName() + "'");
            }
            columns.add(name);
        }
        Connector connector = context.connector(table.catalog(), create.table().getParserPosition());
        try {
            connector.metadata().createIndex(table.schema(), table.table(), create.name().getSimple(), columns, create.unique());
        }
        catch (OntulException e) {
            if (e.code() == ErrorCode.ALREADY_EXISTS && create.ifNotExists()) {
                return context.updateCount(0);
            }
            throw indexError(e, table.catalog(), create.name().getParserPosition());
        }
        return context.updateCount(0);
    }

    /** DROP INDEX: needs DROP on the table. */
    QueryResult dropIndex(io.ontul.engine.sql.tree.SqlDropIndex drop, StatementContext context)
    {
        io.ontul.spi.TableHandle table = context.table(drop.table());
        context.check(Privilege.DROP, Securable.table(table.catalog(), table.schema(), table.table()), drop.table().getParserPosition());
        Connector connector = context.connector(table.catalog(), drop.table().getParserPosition());
        try {
            connector.metadata().dropIndex(table.schema(), table.table(), drop.name().getSimple());
        }
        catch (OntulException e) {
            if (e.code() == ErrorCode.NOT_FOUND && drop.ifExists()) {
                return context.updateCount(0);
            }
            throw indexError(e, table.catalog(), drop.name().getParserPosition());
        }
        return context.updateCount(0);
    }

    private static OntulException indexError(OntulException error, String catalog, SqlParserPos pos)
    {
        String message = error.code() == ErrorCode.NOT_SUPPORTED ? "Catalog '" + catalog + "' has no indexes: " + error.getMessage() : error.getMessage();
        return new OntulException(error.code(), position(pos) + message, error);
    }
}
