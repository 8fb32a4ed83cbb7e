package io.ontul.engine.execution;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDescribeTable;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlCreateTable;
import org.apache.calcite.sql.ddl.SqlDropSchema;
import org.apache.calcite.sql.ddl.SqlDropTable;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.plan.LogicalPlanner;
import io.ontul.engine.plan.PhysicalPlanner;
import io.ontul.engine.plan.PlanNode;
import io.ontul.engine.plan.PlanningDeadline;
import io.ontul.engine.plan.TaskContext;
import io.ontul.engine.query.TrackedQuery;
import io.ontul.engine.query.TrackedQueryResult;
import io.ontul.engine.sql.CatalogSchemas;
import io.ontul.engine.sql.parser.OntulParser;
import io.ontul.engine.sql.tree.SqlCreateCatalog;
import io.ontul.engine.sql.tree.SqlCreateSchemaWithProperties;
import io.ontul.engine.sql.tree.SqlCreateTableWithProperties;
import io.ontul.engine.sql.tree.SqlDropCatalog;
import io.ontul.engine.sql.tree.SqlExplainStatement;
import io.ontul.engine.sql.tree.SqlProperties;
import io.ontul.engine.sql.tree.SqlResetSession;
import io.ontul.engine.sql.tree.SqlSetSession;
import io.ontul.engine.sql.tree.SqlShowCatalogs;
import io.ontul.engine.sql.tree.SqlShowColumns;
import io.ontul.engine.sql.tree.SqlShowSchemas;
import io.ontul.engine.sql.tree.SqlShowTables;
import io.ontul.engine.sql.tree.SqlUse;
import io.ontul.engine.system.SystemConnector;
import io.ontul.engine.system.SystemProcedures;
import io.ontul.engine.type.ArrowTypes;
import io.ontul.spi.BatchSink;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;

/**
 * Runs one statement of a session: parses it, dispatches on its kind, and returns its result.
 * Queries stream; statements that change data run to completion here.
 */
public final class StatementExecutor
{
    /** How Calcite names a select item that has no name: EXPR$ and its position. */
    private static final java.util.regex.Pattern GENERATED_NAME = java.util.regex.Pattern.compile("EXPR\\$\\d+");

    private final Session session;
    private final Engine engine;
    private final String queryId;
    private final String sql;
    private final SqlNode parsed;
    private final List<?> parameters;
    private TrackedQuery tracked;
    private boolean takesSlot;

    public StatementExecutor(Session session, String queryId, String sql)
    {
        this(session, queryId, sql, null);
    }

    /** @param parameters values of the {@code ?} markers, or null when the statement has none */
    public StatementExecutor(Session session, String queryId, String sql, List<?> parameters)
    {
        this(session, queryId, sql, null, parameters);
    }

    /**
     * @param parsed the statement as {@link #prepare} parsed it, never itself validated (each run
     *         binds its parameters into a copy); null to parse {@code sql}
     * @param parameters values of the {@code ?} markers, or null when the statement has none
     */
    public StatementExecutor(Session session, String queryId, String sql, SqlNode parsed, List<?> parameters)
    {
        this.session = session;
        this.engine = session.engine();
        this.queryId = queryId;
        this.sql = sql;
        this.parsed = parsed;
        this.parameters = parameters;
    }

    /**
     * What preparing a statement learned, for {@link io.ontul.engine.api.PreparedStatement}.
     *
     * @param statement the parsed statement; null when it cannot be reused and each execution parses the text again (statements other than queries and INSERT)
     * @param parameterTypes the types of the {@code ?} markers, in order
     */
    public record Preparation(SqlNode statement, boolean returnsRows, org.apache.arrow.vector.types.pojo.Schema parameterSchema, List<RelDataType> parameterTypes) {}

    /**
     * Parses the statement once for many executions and learns the types of its {@code ?}
     * markers, inferred from where they appear (validating a copy: queries and INSERT; other
     * statements take none). A statement that fails here is a failed query too: listed in
     * system.runtime.queries, its id in the client's message (a prepare that works is not listed).
     */
    public Preparation prepare()
    {
        try {
            SqlNode statement = parse();
            if (!StatementKinds.takesParameters(statement)) {
                return new Preparation(null, StatementKinds.returnsRows(statement), new org.apache.arrow.vector.types.pojo.Schema(List.of()), List.of());
            }
            LogicalPlanner planner = planner();
            try {
                planningDeadline().within(() -> planner.validate(Parameters.copy(statement)));
            }
            catch (CalciteContextException e) {
                throw Errors.validation(e, sql);
            }
            catch (RuntimeException e) {
                throw Errors.translate(e, null);
            }
            List<RelDataType> types = new ArrayList<>();
            List<Field> fields = new ArrayList<>();
            for (RelDataType type : planner.parameterTypes()) {
                RelDataType nullable = planner.typeFactory().createTypeWithNullability(type, true);
                types.add(nullable);
                fields.add(ArrowTypes.toField("parameter_" + (types.size()), nullable));
            }
            return new Preparation(statement, StatementKinds.returnsRows(statement), new org.apache.arrow.vector.types.pojo.Schema(fields), List.copyOf(types));
        }
        catch (RuntimeException e) {
            tracked = engine.queries().register(queryId, session.user(), io.ontul.engine.sql.parser.SqlRedaction.redact(sql), SessionProperties.queryMaxRunTime(session.properties()));
            throw tracked.fail(e);
        }
    }

    /**
     * The columns a prepared query returns, planned (not run) with a NULL of its type for each
     * marker: the columns do not depend on the values.
     */
    public Schema resultSchema(Preparation preparation)
    {
        try {
            return plan(Parameters.bindNulls(preparation.statement(), preparation.parameterTypes())).schema();
        }
        catch (CalciteContextException e) {
            throw Errors.validation(e, sql);
        }
        catch (RuntimeException e) {
            throw Errors.translate(e, null);
        }
    }

    private SqlNode parse()
    {
        counters().parsed();
        return OntulParser.parse(sql, engine.queries().limits().statementLimits());
    }

    private StatementCounters counters()
    {
        return (StatementCounters) engine.statementStatistics();
    }

    /**
     * Runs the statement as an entry of the engine's query registry: it may wait for a slot
     * (queries and DML), it ends when its result is read to the end or closed, and it can be
     * killed or run out of time meanwhile.
     */
    public QueryResult execute()
    {
        tracked = engine.queries().register(queryId, session.user(), io.ontul.engine.sql.parser.SqlRedaction.redact(sql), SessionProperties.queryMaxRunTime(session.properties()));
        try {
            QueryResult result = run();
            if (result instanceof StaticResult done) {
                tracked.finish(done.rowCount(), done.bufferBytes());
                return done;
            }
            return new TrackedQueryResult(tracked, result);
        }
        catch (RuntimeException e) {
            throw tracked.fail(e);
        }
        catch (StackOverflowError e) {
            // a safety net below ontul.query.max-expression-depth: the statement fails, the thread lives on
            throw tracked.fail(new OntulException(ErrorCode.INVALID_ARGUMENT,
                    "Statement is too complex: planning it ran out of stack; nest less deeply or lower ontul.query.max-expression-depth"));
        }
        catch (Error e) {
            tracked.fail(OntulException.internal(e.toString(), e));
            throw e;
        }
    }

    private QueryResult run()
    {
        SqlNode statement = parsed != null ? parsed : parse();
        if (parameters != null || parsed != null) {
            // a copy: the prepared statement's tree serves its next executions too
            statement = Parameters.bind(statement, parameters == null ? List.of() : parameters);
        }
        takesSlot = StatementKinds.takesSlot(statement);
        if (!takesSlot) {
            tracked.start();
        }
        try {
            return dispatch(statement);
        }
        catch (CalciteContextException e) {
            throw Errors.validation(e, sql);
        }
        catch (RuntimeException e) {
            throw Errors.translate(e, null);
        }
    }

    private QueryResult dispatch(SqlNode statement)
    {
        if (io.ontul.engine.security.UserStatements.isUserStatement(statement)) {
            return new io.ontul.engine.security.UserStatements(session, queryId).execute(statement);
        }
        if (statement instanceof SqlShowCatalogs show) {
            return listing("catalog", filter(session.catalogs().catalogs(), show.likePattern()));
        }
        if (statement instanceof SqlShowSchemas show) {
            String catalog = show.catalog().map(id -> id.names.get(0)).orElseGet(this::defaultCatalog);
            SqlParserPos pos = show.catalog().map(SqlNode::getParserPosition).orElse(show.getParserPosition());
            requireCatalog(catalog, pos);
            return listing("schema", filter(session.catalogs().schemas(catalog), show.likePattern()));
        }
        if (statement instanceof SqlShowTables show) {
            List<String> names = show.schema().<List<String>>map(id -> id.names).orElse(List.of());
            String catalog = names.size() >= 2 ? names.get(0) : defaultCatalog();
            String schema = names.isEmpty() ? defaultSchema() : names.get(names.size() - 1);
            SqlParserPos pos = show.schema().map(SqlNode::getParserPosition).orElse(show.getParserPosition());
            requireCatalog(catalog, pos);
            if (!session.catalogs().schemaExists(catalog, schema)) {
                throw new OntulException(ErrorCode.NOT_FOUND, position(pos) + "Schema '" + catalog + "." + schema + "' does not exist");
            }
            return listing("table", filter(session.catalogs().tables(catalog, schema), show.likePattern()));
        }
        if (statement instanceof SqlShowColumns show) {
            return describe(show.table());
        }
        if (statement instanceof SqlDescribeTable describe) {
            return describe(describe.getTable());
        }
        if (statement instanceof SqlSetSession set) {
            session.setProperty(String.join(".", set.name().names), set.valueText());
            return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
        }
        if (statement instanceof SqlResetSession reset) {
            session.resetProperty(String.join(".", reset.name().names));
            return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
        }
        if (statement instanceof SqlUse use) {
            List<String> names = use.name().names;
            if (names.size() == 2) {
                connector(names.get(0), use.getParserPosition());
                session.setCatalog(names.get(0));
                session.setSchema(names.get(1));
            }
            else {
                session.setSchema(names.get(0));
            }
            return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
        }
        if (statement instanceof SqlExplainStatement explain) {
            return explain(explain.statement(), explain.isAnalyze());
        }
        if (statement instanceof SqlExplain explain) {
            return explain(explain.getExplicandum(), false);
        }
        if (statement instanceof SqlCreateTable create) {
            return createTable(create);
        }
        if (statement instanceof SqlCreateCatalog create) {
            requireAdmin("CREATE CATALOG", create.getParserPosition());
            Map<String, String> properties = SqlProperties.text(create.properties());
            engine.catalogs().create(create.name().getSimple(), create.connector().getSimple(), properties, session.user(), create.ifNotExists());
            return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
        }
        if (statement instanceof io.ontul.engine.sql.tree.SqlCreateStreamingJob create) {
            requireAdmin("CREATE STREAMING JOB", create.getParserPosition());
            engine.streamingJobs().create(create, sql, Optional.ofNullable(session.catalog()), Optional.ofNullable(session.schema()), session.user());
            return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
        }
        if (statement instanceof io.ontul.engine.sql.tree.SqlDropStreamingJob drop) {
            requireAdmin("DROP STREAMING JOB", drop.getParserPosition());
            if (!engine.streamingJobs().drop(drop.name().getSimple()) && !drop.ifExists()) {
                throw new OntulException(ErrorCode.NOT_FOUND, position(drop.name().getParserPosition()) + "Streaming job '" + drop.name().getSimple() + "' does not exist");
            }
            return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
        }
        if (statement instanceof io.ontul.engine.sql.tree.SqlShowStreamingJobs) {
            return StaticResult.rows(queryId, engine.rootAllocator(), io.ontul.engine.streaming.StreamingJobManager.SHOW_COLUMNS, engine.streamingJobs().show());
        }
        if (statement instanceof io.ontul.engine.sql.tree.SqlStreamingJobCommand command) {
            return streamingJobCommand(command);
        }
        if (statement instanceof SqlDropCatalog drop) {
            requireAdmin("DROP CATALOG", drop.getParserPosition());
            if (!engine.catalogs().drop(drop.name().getSimple()) && !drop.ifExists()) {
                throw new OntulException(ErrorCode.NOT_FOUND, position(drop.name().getParserPosition()) + "Catalog '" + drop.name().getSimple() + "' does not exist");
            }
            return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
        }
        if (statement instanceof SqlCreateSchemaWithProperties create) {
            return createSchema(create);
        }
        if (statement instanceof SqlDropSchema drop) {
            return dropSchema(drop);
        }
        if (statement instanceof SqlDropTable drop) {
            return dropTable(drop);
        }
        if (statement instanceof SqlInsert insert) {
            return insert(insert);
        }
        if (statement.getKind() == SqlKind.PROCEDURE_CALL) {
            new SystemProcedures(engine.queries()).call((SqlCall) statement, session.user());
            return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
        }
        if (statement.getKind().belongsTo(SqlKind.QUERY)) {
            return query(statement);
        }
        throw new OntulException(ErrorCode.NOT_SUPPORTED, position(statement.getParserPosition()) + "Statement is not supported: " + statement.getKind());
    }

    private QueryResult streamingJobCommand(io.ontul.engine.sql.tree.SqlStreamingJobCommand command)
    {
        String name = command.name().getSimple();
        try {
            switch (command.action()) {
                case DESCRIBE -> {
                    return StaticResult.text(queryId, engine.rootAllocator(), List.of("property", "value"), engine.streamingJobs().describe(name));
                }
                case STOP -> {
                    requireAdmin("STOP STREAMING JOB", command.getParserPosition());
                    engine.streamingJobs().stop(name);
                }
                case START -> {
                    requireAdmin("START STREAMING JOB", command.getParserPosition());
                    engine.streamingJobs().start(name);
                }
            }
        }
        catch (OntulException e) {
            if (e.code() == ErrorCode.NOT_FOUND && e.getMessage().startsWith("Streaming job '")) {
                throw new OntulException(ErrorCode.NOT_FOUND, position(command.name().getParserPosition()) + e.getMessage(), e);
            }
            throw e;
        }
        return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
    }

    // ---- metadata

    private String defaultCatalog()
    {
        if (session.catalog() == null) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "No catalog selected: qualify the name (catalog.schema) or run USE catalog.schema");
        }
        return session.catalog();
    }

    private String defaultSchema()
    {
        if (session.schema() == null) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "No schema selected: qualify the name (catalog.schema) or run USE catalog.schema");
        }
        return session.schema();
    }

    private void requireCatalog(String catalog, SqlParserPos pos)
    {
        connector(catalog, pos);
    }

    private Connector connector(String catalog, SqlParserPos pos)
    {
        return engine.catalogs().get(catalog)
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_FOUND, position(pos) + "Catalog '" + catalog + "' does not exist"));
    }

    private static String position(SqlParserPos pos)
    {
        return pos == null || pos.getLineNum() == 0 ? "" : "line " + pos.getLineNum() + ":" + pos.getColumnNum() + ": ";
    }

    /** The names a SHOW's LIKE pattern matches (no escape character), in the browser's order. */
    private static List<String> filter(List<String> names, Optional<String> likePattern)
    {
        if (likePattern.isEmpty()) {
            return names;
        }
        java.util.function.Predicate<String> matches = io.ontul.engine.api.CatalogBrowser.like(likePattern.get(), null);
        return names.stream().filter(matches).toList();
    }

    private QueryResult listing(String column, List<String> values)
    {
        return StaticResult.text(queryId, engine.rootAllocator(), List.of(column), values.stream().map(List::of).toList());
    }

    /** catalog, schema, table of an identifier, using the session defaults for missing parts. */
    private List<String> qualify(SqlIdentifier identifier)
    {
        List<String> names = identifier.names;
        return switch (names.size()) {
            case 1 -> List.of(defaultCatalog(), defaultSchema(), names.get(0));
            case 2 -> List.of(defaultCatalog(), names.get(0), names.get(1));
            default -> List.of(names.get(names.size() - 3), names.get(names.size() - 2), names.get(names.size() - 1));
        };
    }

    private TableHandle table(SqlIdentifier identifier)
    {
        List<String> name = qualify(identifier);
        Connector connector = connector(name.get(0), identifier.getParserPosition());
        return connector.metadata().getTable(name.get(1), name.get(2))
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_FOUND, position(identifier.getParserPosition()) + "Table '" + String.join(".", name) + "' does not exist"));
    }

    private QueryResult describe(SqlIdentifier identifier)
    {
        TableHandle table = table(identifier);
        LogicalPlanner planner = planner();
        List<List<String>> rows = new ArrayList<>();
        for (Field field : table.columns().getFields()) {
            RelDataType type = ArrowTypes.toRelType(planner.typeFactory(), field);
            rows.add(List.of(field.getName(), ArrowTypes.sqlName(type), field.isNullable() ? "YES" : "NO"));
        }
        return StaticResult.text(queryId, engine.rootAllocator(), List.of("column_name", "data_type", "is_nullable"), rows);
    }

    // ---- queries

    private LogicalPlanner planner()
    {
        SchemaPlus root = CatalogSchemas.rootSchema(engine.catalogs());
        List<String> path = session.catalog() == null ? List.of() : session.schema() == null ? List.of(session.catalog()) : List.of(session.catalog(), session.schema());
        return new LogicalPlanner(root, path);
    }

    /** @param readsOnlySystemTables whether it reads system tables only: such queries need no slot, so they can watch a busy engine */
    private record PlannedQuery(PlanNode root, Schema schema, boolean readsOnlySystemTables) {}

    /** Plans under the statement's planning deadline (see {@link PlanningDeadline}). */
    private PlannedQuery plan(SqlNode query)
    {
        return planningDeadline().within(() -> planNow(query));
    }

    private PlanningDeadline planningDeadline()
    {
        TrackedQuery statement = tracked;
        return new PlanningDeadline(SessionProperties.queryMaxPlanningTime(session.properties(), engine.queries().limits()),
                statement == null ? () -> { } : statement::throwIfEnded);
    }

    private PlannedQuery planNow(SqlNode query)
    {
        counters().planned();
        LogicalPlanner planner = planner();
        SqlNode validated = planner.validate(query);
        RelRoot relRoot = planner.toOptimizedRel(validated);
        RelNode rel = relRoot.project();
        PhysicalPlanner physical = new PhysicalPlanner(rel.getCluster().getRexBuilder());
        PlanNode root = physical.planRoot(rel);
        return new PlannedQuery(root, outputSchema(root.schema(), relRoot.validatedRowType), readsOnlySystemTables(rel));
    }

    private static boolean readsOnlySystemTables(RelNode rel)
    {
        List<org.apache.calcite.plan.RelOptTable> tables = org.apache.calcite.plan.RelOptUtil.findAllTables(rel);
        return !tables.isEmpty() && tables.stream().allMatch(table -> {
            io.ontul.engine.sql.ConnectorTable connectorTable = table.unwrap(io.ontul.engine.sql.ConnectorTable.class);
            return connectorTable != null && connectorTable.connector() instanceof SystemConnector;
        });
    }

    /**
     * The result's columns: the physical types under the validated names, where a column without
     * a name of its own ({@code SELECT count(*)}, Calcite's {@code EXPR$0}) is {@code _col<position>},
     * as Trino names it.
     */
    private static Schema outputSchema(Schema physical, RelDataType validated)
    {
        List<Field> fields = new ArrayList<>();
        List<RelDataTypeField> names = validated.getFieldList();
        for (int i = 0; i < physical.getFields().size(); i++) {
            Field field = physical.getFields().get(i);
            String name = i < names.size() ? names.get(i).getName() : field.getName();
            if (GENERATED_NAME.matcher(name).matches()) {
                name = "_col" + i;
            }
            fields.add(new Field(name, field.getFieldType(), field.getChildren()));
        }
        return new Schema(fields);
    }

    /** Waits for a slot if the statement takes one, then opens the query's context. */
    private QueryContext newContext(boolean readsOnlySystemTables)
    {
        tracked.admit(takesSlot && !readsOnlySystemTables);
        long maxMemory = SessionProperties.queryMaxMemory(session.properties(), engine.config());
        QueryContext[] self = new QueryContext[1];
        self[0] = new QueryContext(queryId, session.user(), engine.rootAllocator(), maxMemory, engine.workers(),
                QueryContext.parallelismWithin(maxMemory, engine.parallelism()),
                new org.apache.calcite.rex.RexBuilder(new org.apache.calcite.jdbc.JavaTypeFactoryImpl(io.ontul.engine.type.OntulTypeSystem.INSTANCE)),
                () -> tracked.detach(self[0]));
        self[0].enableSpill(engine.exchange().spillStore());
        tracked.attach(self[0]);
        return self[0];
    }

    private QueryResult query(SqlNode query)
    {
        PlannedQuery planned = plan(query);
        QueryContext context = newContext(planned.readsOnlySystemTables());
        try {
            Operator root = planned.root().open(TaskContext.single(context));
            return new StreamingQueryResult(context, root, planned.schema(), () -> { });
        }
        catch (RuntimeException e) {
            context.close();
            throw e;
        }
    }

    private QueryResult explain(SqlNode statement, boolean analyze)
    {
        SqlNode query = statement instanceof SqlInsert insert ? insert.getSource() : statement;
        PlannedQuery planned = plan(query);
        if (analyze) {
            QueryContext context = newContext(planned.readsOnlySystemTables());
            Operator root;
            try {
                root = planned.root().open(TaskContext.single(context));
            }
            catch (RuntimeException e) {
                context.close();
                throw e;
            }
            try (StreamingQueryResult result = new StreamingQueryResult(context, root, planned.schema(), () -> { })) {
                while (result.nextBatch() != null) {
                    // drain: EXPLAIN ANALYZE runs the query to completion
                }
            }
        }
        List<List<String>> rows = new ArrayList<>();
        render(planned.root(), 0, analyze, rows);
        return StaticResult.text(queryId, engine.rootAllocator(), List.of("plan"), rows);
    }

    private static void render(PlanNode node, int depth, boolean analyze, List<List<String>> rows)
    {
        StringBuilder line = new StringBuilder("  ".repeat(depth)).append("- ").append(node.describe());
        line.append(node.vectorized() ? " [vectorized]" : " [row-at-a-time fallback]");
        if (analyze) {
            line.append(String.format(Locale.ROOT, " (rows=%d batches=%d time=%.1fms memory=%s)",
                    node.stats().rows(), node.stats().batches(), node.stats().nanos() / 1e6, io.ontul.engine.memory.DataSize.format(node.stats().memoryBytes())));
            if (node.stats().spilledRuns() > 0) {
                line.setLength(line.length() - 1);
                line.append(String.format(Locale.ROOT, " spilled=%s in %d runs",
                        io.ontul.engine.memory.DataSize.format(node.stats().spilledBytes()), node.stats().spilledRuns()));
                if (node.stats().repartitioned() > 0) {
                    line.append(" repartitioned=").append(node.stats().repartitioned());
                }
                if (node.stats().chunked() > 0) {
                    line.append(" chunked=").append(node.stats().chunked());
                }
                if (node.stats().resident() > 0) {
                    line.append(" resident=").append(node.stats().resident());
                }
                if (node.stats().shared() > 0) {
                    line.append(" shared=").append(node.stats().shared());
                }
                line.append(')');
            }
        }
        rows.add(List.of(line.toString()));
        for (PlanNode child : node.children()) {
            render(child, depth + 1, analyze, rows);
        }
    }

    // ---- DDL and DML

    private QueryResult createTable(SqlCreateTable create)
    {
        SqlIdentifier name = create.name;
        List<String> qualified = qualify(name);
        Connector connector = connector(qualified.get(0), name.getParserPosition());
        if (connector.metadata().getTable(qualified.get(1), qualified.get(2)).isPresent()) {
            if (create.ifNotExists) {
                return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
            }
            throw new OntulException(ErrorCode.ALREADY_EXISTS, position(name.getParserPosition()) + "Table '" + String.join(".", qualified) + "' already exists");
        }
        if (create.query == null) {
            LogicalPlanner planner = planner();
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
            return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
        }
        PlannedQuery planned = plan(create.query);
        List<Field> fields = new ArrayList<>();
        for (Field field : planned.schema().getFields()) {
            fields.add(new Field(field.getName(), new FieldType(true, field.getType(), null, field.getMetadata()), null));
        }
        // the connector creates the table when the rows commit (Iceberg: in the same commit), so
        // a failure or a crash while writing leaves no table behind
        Schema columns = new Schema(fields);
        long rows = write(() -> connector.createTableAs(qualified.get(1), qualified.get(2), columns, tableProperties(create)), columns, planned);
        return StaticResult.updateCount(queryId, engine.rootAllocator(), rows);
    }

    private static Map<String, Object> tableProperties(SqlCreateTable create)
    {
        return create instanceof SqlCreateTableWithProperties withProperties ? SqlProperties.values(withProperties.properties()) : Map.of();
    }

    private QueryResult createSchema(SqlCreateSchemaWithProperties create)
    {
        List<String> names = create.name().names;
        String catalog = names.size() >= 2 ? names.get(names.size() - 2) : defaultCatalog();
        String schema = names.get(names.size() - 1);
        Connector connector = connector(catalog, create.name().getParserPosition());
        if (connector.metadata().listSchemas().contains(schema)) {
            if (create.ifNotExists()) {
                return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
            }
            throw new OntulException(ErrorCode.ALREADY_EXISTS, position(create.name().getParserPosition()) + "Schema '" + catalog + "." + schema + "' already exists");
        }
        connector.metadata().createSchema(schema, SqlProperties.values(create.properties()));
        return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
    }

    private QueryResult dropSchema(SqlDropSchema drop)
    {
        List<String> names = drop.name.names;
        String catalog = names.size() >= 2 ? names.get(names.size() - 2) : defaultCatalog();
        String schema = names.get(names.size() - 1);
        Connector connector = connector(catalog, drop.name.getParserPosition());
        if (!connector.metadata().listSchemas().contains(schema)) {
            if (drop.ifExists) {
                return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
            }
            throw new OntulException(ErrorCode.NOT_FOUND, position(drop.name.getParserPosition()) + "Schema '" + catalog + "." + schema + "' does not exist");
        }
        connector.metadata().dropSchema(schema);
        return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
    }

    /** Catalog statements change what every user sees: administrators only, where there are users. */
    private void requireAdmin(String statement, SqlParserPos pos)
    {
        if (!engine.userManagement().map(users -> users.isAdmin(session.user())).orElse(true)) {
            throw new OntulException(ErrorCode.PERMISSION_DENIED, position(pos)
                    + "Permission denied: " + statement + " needs an administrator; user '" + session.user() + "' is not one");
        }
    }

    private QueryResult dropTable(SqlDropTable drop)
    {
        List<String> qualified = qualify(drop.name);
        Connector connector = connector(qualified.get(0), drop.name.getParserPosition());
        if (connector.metadata().getTable(qualified.get(1), qualified.get(2)).isEmpty()) {
            if (drop.ifExists) {
                return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
            }
            throw new OntulException(ErrorCode.NOT_FOUND, position(drop.name.getParserPosition()) + "Table '" + String.join(".", qualified) + "' does not exist");
        }
        connector.metadata().dropTable(qualified.get(1), qualified.get(2));
        return StaticResult.updateCount(queryId, engine.rootAllocator(), 0);
    }

    /**
     * Hidden columns (Kafka's {@code _offset}, say) are never written: an INSERT without a column
     * list targets the visible columns (the hidden ones reach the sink as NULL), and one that
     * names a hidden column fails.
     */
    public static SqlInsert withoutHiddenColumns(SqlInsert insert, TableHandle table)
    {
        List<Field> hidden = table.columns().getFields().stream()
                .filter(field -> "true".equals(field.getMetadata().get(TableHandle.HIDDEN_COLUMN)))
                .toList();
        if (hidden.isEmpty()) {
            return insert;
        }
        SqlNodeList columns = insert.getTargetColumnList();
        if (columns != null) {
            for (SqlNode column : columns) {
                String name = ((SqlIdentifier) column).getSimple();
                if (hidden.stream().anyMatch(field -> field.getName().equals(name))) {
                    throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(column.getParserPosition())
                            + "Column '" + name + "' of table '" + table.qualifiedName() + "' is hidden and cannot be written");
                }
            }
            return insert;
        }
        List<SqlNode> visible = new ArrayList<>();
        for (Field field : table.columns().getFields()) {
            if (!hidden.contains(field)) {
                visible.add(new SqlIdentifier(field.getName(), SqlParserPos.ZERO));
            }
        }
        return new SqlInsert(insert.getParserPosition(), (SqlNodeList) insert.getOperandList().get(0), insert.getTargetTable(), insert.getSource(),
                new SqlNodeList(visible, SqlParserPos.ZERO));
    }

    private QueryResult insert(SqlInsert insert)
    {
        SqlIdentifier target = (SqlIdentifier) insert.getTargetTable();
        TableHandle table = table(target);
        Connector connector = connector(table.catalog(), target.getParserPosition());
        SqlInsert unhidden = withoutHiddenColumns(insert, table);
        PlanNode root = planningDeadline().within(() -> planInsert(unhidden, table, target));
        long rows = write(() -> connector.createSink(connector.metadata().getTable(table.schema(), table.table()).orElse(table)), table.columns(), new PlannedQuery(root, table.columns(), false));
        return StaticResult.updateCount(queryId, engine.rootAllocator(), rows);
    }

    private PlanNode planInsert(SqlInsert insert, TableHandle table, SqlIdentifier target)
    {
        counters().planned();
        LogicalPlanner planner = planner();
        SqlNode validated;
        try {
            validated = planner.validate(insert);
        }
        catch (IndexOutOfBoundsException e) {
            int targets = insert.getTargetColumnList() == null ? table.columns().getFields().size() : insert.getTargetColumnList().size();
            LogicalPlanner sourcePlanner = planner();
            int sources = sourcePlanner.validatedRowType(sourcePlanner.validate(insert.getSource())).getFieldCount();
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(target.getParserPosition())
                    + "Number of INSERT target columns (" + targets + ") does not equal number of source items (" + sources + ")");
        }
        RelRoot relRoot = planner.toOptimizedRel(validated);
        RelNode rel = relRoot.rel;
        if (rel instanceof TableModify modify) {
            rel = modify.getInput();
        }
        PhysicalPlanner physical = new PhysicalPlanner(rel.getCluster().getRexBuilder());
        return physical.planRoot(rel);
    }

    /** Runs {@code planned} into the sink {@code openSink} opens, with the target's {@code columns}; returns the rows written. */
    private long write(Supplier<BatchSink> openSink, Schema columns, PlannedQuery planned)
    {
        // admitted first: a sink may hold resources (a Kafka transaction, a database connection)
        // that must not wait in the queue, nor leak when the query is refused there
        QueryContext context = newContext(false);
        BatchSink sink;
        try {
            sink = openSink.get();
        }
        catch (RuntimeException e) {
            context.close();
            throw e;
        }
        boolean committed = false;
        try {
            Operator root;
            try {
                root = planned.root().open(TaskContext.single(context));
            }
            catch (RuntimeException e) {
                context.close();
                throw e;
            }
            try (StreamingQueryResult result = new StreamingQueryResult(context, root, planned.schema(), () -> { })) {
                VectorSchemaRoot batch;
                while ((batch = result.nextBatch()) != null) {
                    VectorSchemaRoot relabelled = new VectorSchemaRoot(columns.getFields(), batch.getFieldVectors(), batch.getRowCount());
                    sink.append(relabelled);
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
}
