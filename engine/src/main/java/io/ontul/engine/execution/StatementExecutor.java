package io.ontul.engine.execution;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.exchange.RemoteSource;
import io.ontul.engine.operator.write.TableWriteOperator;
import io.ontul.engine.plan.GatherNode;
import io.ontul.engine.plan.LogicalPlanner;
import io.ontul.engine.plan.PhysicalPlanner;
import io.ontul.engine.plan.PlanNode;
import io.ontul.engine.query.PlanningDeadline;
import io.ontul.engine.plan.TaskContext;
import io.ontul.engine.query.QueryContext;
import io.ontul.engine.query.QueryLimits;
import io.ontul.engine.query.TrackedQuery;
import io.ontul.engine.query.TrackedQueryResult;
import io.ontul.engine.sql.CatalogSchemas;
import io.ontul.engine.sql.parser.OntulParser;
import io.ontul.engine.sql.parser.StatementLimits;
import io.ontul.engine.statement.PlannedQuery;
import io.ontul.engine.scheduler.Fragment;
import io.ontul.engine.scheduler.QueryScheduler;
import io.ontul.spi.cluster.FragmentRequest;
import io.ontul.spi.cluster.FragmentWrite;
import io.ontul.engine.statement.StatementContext;
import io.ontul.engine.statement.StatementHandlers;
import io.ontul.engine.system.SystemConnector;
import io.ontul.engine.type.ArrowTypes;
import io.ontul.spi.BatchSink;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;

/**
 * Runs one statement of a session: parses it (or takes a prepared statement's tree and binds its
 * parameters), registers it in the query registry, and hands it to its handler
 * ({@link StatementHandlers}) as the handler's {@link StatementContext}: planning under its
 * deadline, running under its slot and memory limit. Queries stream; statements that change data
 * run to completion here.
 */
public final class StatementExecutor
        implements StatementContext
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

    private io.ontul.engine.security.UserAccess access;
    /** The versions of the tables a worker reads (those the coordinator planned with), by qualified name; none on the coordinator. */
    private java.util.Map<String, String> tableVersions = java.util.Map.of();
    // planning a worker's fragment: as the coordinator planned a distributed statement
    private boolean runsFragment;
    /** For a worker's fragment: whether its coordinator gave up on it (planning checks it). */
    private java.util.function.BooleanSupplier abandoned = () -> false;
    /** How often the statement was planned for the workers (a retry plans again). */
    private int plannings;

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
            tracked = register();
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
        return OntulParser.parse(sql, statementLimits(engine.queries().limits()));
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
    /** The statement's entry in the query registry (its text redacted). */
    private TrackedQuery register()
    {
        return engine.queries().register(queryId, session.user(), io.ontul.engine.sql.parser.SqlRedaction.redact(sql), SessionProperties.queryMaxRunTime(session.properties()));
    }

    public QueryResult execute()
    {
        tracked = register();
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
        java.util.Optional<io.ontul.engine.security.AuditLog.Kind> audited = StatementKinds.auditKind(statement);
        QueryResult result;
        try {
            try {
                result = dispatch(statement);
            }
            catch (CalciteContextException e) {
                throw Errors.validation(e, sql);
            }
            catch (RuntimeException e) {
                throw Errors.translate(e, null);
            }
        }
        catch (OntulException e) {
            if (e.code() == ErrorCode.PERMISSION_DENIED) {
                audit(io.ontul.engine.security.AuditLog.Kind.DENIED, "DENIED", e.getMessage());
            }
            else {
                audited.ifPresent(kind -> audit(kind, "FAILED", e.getMessage()));
            }
            throw e;
        }
        audited.ifPresent(kind -> audit(kind, "OK", null));
        return result;
    }

    /** Records the statement in the audit log, its text as system.runtime.queries shows it. */
    private void audit(io.ontul.engine.security.AuditLog.Kind kind, String outcome, String detail)
    {
        accessControl().audit().record(new io.ontul.engine.security.AuditLog.Event(java.time.Instant.now(), kind, access().user(), null,
                io.ontul.engine.sql.parser.SqlRedaction.redact(sql), outcome, detail));
    }

    private QueryResult dispatch(SqlNode statement)
    {
        return StatementHandlers.STANDARD.execute(statement, this);
    }

    // ---- the statement's context, for its handler

    @Override
    public Session session()
    {
        return session;
    }

    @Override
    public String queryId()
    {
        return queryId;
    }

    @Override
    public String sql()
    {
        return sql;
    }

    @Override
    public QueryResult updateCount(long rows)
    {
        return StaticResult.updateCount(queryId, engine.rootAllocator(), rows);
    }

    @Override
    public QueryResult text(List<String> columns, List<List<String>> rows)
    {
        return StaticResult.text(queryId, engine.rootAllocator(), columns, rows);
    }

    @Override
    public QueryResult rows(List<Field> columns, List<List<Object>> rows)
    {
        return StaticResult.rows(queryId, engine.rootAllocator(), columns, rows);
    }

    // ---- planning and running

    @Override
    public LogicalPlanner planner()
    {
        SchemaPlus root = CatalogSchemas.rootSchema(engine.catalogs(), io.ontul.engine.system.InformationSchema.forUser(engine.catalogs().views(), access()), tableVersions);
        List<String> path = session.catalog() == null ? List.of() : session.schema() == null ? List.of(session.catalog()) : List.of(session.catalog(), session.schema());
        SessionSettings settings = session;
        return new LogicalPlanner(root, path, access()).withTimeZone(SessionProperties.timeZone(settings.properties()));
    }

    /** What the session's user may do, read once for the statement. */
    @Override
    public io.ontul.engine.security.UserAccess access()
    {
        if (access == null) {
            access = accessControl().of(session.user());
        }
        return access;
    }

    @Override
    public java.util.Optional<io.ontul.engine.security.Grants> grants()
    {
        return accessControl().grants();
    }

    private io.ontul.engine.security.AccessControl accessControl()
    {
        return engine.accessControl();
    }

    /** Plans under the statement's planning deadline (see {@link PlanningDeadline}). */
    @Override
    public PlannedQuery plan(SqlNode query)
    {
        return planningDeadline().within(() -> planNow(query));
    }

    private PlanningDeadline planningDeadline()
    {
        TrackedQuery statement = tracked;
        return new PlanningDeadline(SessionProperties.queryMaxPlanningTime(session.properties(), engine.queries().limits()), () -> {
            if (statement != null) {
                statement.throwIfEnded();
            }
            throwIfAbandoned();
        });
    }

    /** A worker's fragment whose coordinator cancelled the call stops planning, and does not start. */
    private void throwIfAbandoned()
    {
        if (abandoned.getAsBoolean()) {
            throw new OntulException(ErrorCode.QUERY_CANCELLED, "The coordinator no longer needs fragment " + queryId + " (its query was cancelled or ended)");
        }
    }

    /**
     * The physical planner for a statement: with {@code share}, a subplan the statement reads more
     * than once is computed once. A plan whose fragments go to workers shares none (a worker runs
     * each fragment in its own context, and the nodes under a shared subplan would serve two): the
     * coordinator plans again without ({@link #distribute} says when), and a worker plans as its
     * coordinator did.
     */
    private PhysicalPlanner physicalPlanner(RelNode rel, boolean share)
    {
        return new PhysicalPlanner(rel.getCluster().getRexBuilder(), share && !runsFragment);
    }

    private PlannedQuery planNow(SqlNode query)
    {
        counters().planned();
        LogicalPlanner planner = planner();
        SqlNode validated = planner.validate(query);
        RelRoot relRoot = planner.toOptimizedRel(validated);
        RelNode rel = relRoot.project();
        PlanNode root = physicalPlanner(rel, true).planRoot(rel);
        if (!distribute(root)) {
            root = physicalPlanner(rel, false).planRoot(rel);
            distribute(root);
        }
        return new PlannedQuery(root, outputSchema(root.schema(), relRoot.validatedRowType), readsOnlySystemTables(rel), planner.viewsRead());
    }

    /**
     * Places the fragments of {@code root} on the workers, if there are any and the statement can
     * run there; false, placing none, when it could but {@code root} shares subplans (plan it again
     * without, then place that).
     */
    private boolean distribute(PlanNode root)
    {
        if (parameters == null || parameters.isEmpty()) {
            QueryScheduler scheduler = engine.scheduler();
            if (scheduler.distributes() && QueryScheduler.sharesSubplans(root)) {
                return false;
            }
            // a worker plans the statement's text again to run its share: values bound to ? markers are not in the text
            scheduler.distribute(root, this::fragmentRequest);
        }
        return true;
    }

    /** The statement as a worker needs it; the scheduler fills in the fragment and the worker's share. */
    private FragmentRequest fragmentRequest()
    {
        return FragmentRequest.statement(queryId, session.user(), sql, session.catalog(), session.schema(), session.properties(), parallelism(), ++plannings);
    }

    /**
     * Runs this worker's share of one fragment of the statement a coordinator planned: plans the
     * same text the same way, finds the fragment by its index, checks that it is the plan the
     * coordinator cut, and runs instances {@code request.firstInstance()} onwards of
     * {@code request.instances()}, merged into one stream. Listed in the worker's system.runtime.queries under
     * this executor's id (the coordinator's query id and {@code .f<fragment>}); it takes no slot (the
     * coordinator's query holds one).
     *
     * @param started told the fragment's plan before it runs (whose operators' figures EXPLAIN ANALYZE asks for)
     */
    public QueryResult executeFragment(FragmentRequest request, java.util.function.BooleanSupplier abandoned, java.util.function.Consumer<PlanNode> started)
    {
        this.abandoned = abandoned;
        tracked = register();
        try {
            tracked.start();
            SqlNode query = queryOf(parse());
            // the tables as the coordinator planned with them
            tableVersions = request.tableVersions();
            runsFragment = true;
            // planned once for all fragments of the statement this worker runs
            List<Fragment> fragments = engine.scheduler().fragmentsFor(request, () -> planningDeadline().within(() -> {
                if (query instanceof SqlInsert insert) {
                    SqlIdentifier target = (SqlIdentifier) insert.getTargetTable();
                    TableHandle table = table(target);
                    return planInsertNow(io.ontul.engine.sql.HiddenColumns.withoutHiddenColumns(insert, table), table, target, false);
                }
                counters().planned();
                LogicalPlanner planner = planner();
                RelNode rel = planner.toOptimizedRel(planner.validate(query)).project();
                return physicalPlanner(rel, false).planRoot(rel);
            }));
            if (request.fragment() >= fragments.size() || !fragments.get(request.fragment()).fingerprint().equals(request.fingerprint())) {
                throw new OntulException(ErrorCode.INTERNAL_ERROR, "Internal error (this is a bug in Ontul): this worker plans fragment " + request.fragment()
                        + " of the statement differently from the coordinator. The coordinator's:\n" + request.fingerprint() + "This worker's:\n"
                        + (request.fragment() < fragments.size() ? fragments.get(request.fragment()).fingerprint() : "(only " + fragments.size() + " fragments)"));
            }
            PlanNode fragment = fragments.get(request.fragment()).root();
            throwIfAbandoned();
            started.accept(fragment);
            QueryContext context = openContext(request.instancesPerWorker());
            try {
                Operator merged = new io.ontul.engine.operator.exchange.GatherOperator(context,
                        instance -> fragment.open(new TaskContext(context, request.firstInstance() + instance, request.instances(), request.instancesPerWorker())), request.instancesPerWorker());
                if (request.write() != null) {
                    return new TrackedQueryResult(tracked, new StreamingQueryResult(context, writer(context, merged, request), TableWriteOperator.SCHEMA, () -> { }));
                }
                return new TrackedQueryResult(tracked, new StreamingQueryResult(context, merged, fragment.schema(), () -> { }));
            }
            catch (RuntimeException e) {
                context.close();
                throw e;
            }
        }
        catch (CalciteContextException e) {
            // the coordinator validated the same text: a worker that cannot lacks what the coordinator has
            OntulException invalid = Errors.validation(e, sql);
            throw tracked.fail(new OntulException(invalid.code(), "This worker cannot plan its part of the statement, which its coordinator planned (give every node the same catalogs: "
                    + "conf/catalogs/ or one shared metadata store): " + invalid.getMessage(), invalid));
        }
        catch (RuntimeException e) {
            throw tracked.fail(Errors.translate(e, null));
        }
    }

    /** This worker's writer of a fragment's rows into the table of the coordinator's write, over the merged instances. */
    private Operator writer(QueryContext context, Operator merged, FragmentRequest request)
    {
        String catalog = request.write().catalog();
        io.ontul.spi.SinkWriter writer;
        try {
            io.ontul.spi.Connector connector = engine.catalogs().get(catalog).orElseThrow(() -> new OntulException(ErrorCode.NOT_FOUND,
                    "This worker has no catalog '" + catalog + "' to write into: give every node of the cluster the same catalogs (conf/catalogs/, or one shared metadata store)"));
            writer = connector.openSinkWriter(request.write().handle(), request.worker() + 1);
        }
        catch (RuntimeException e) {
            merged.close();
            throw e;
        }
        return new TableWriteOperator(context, merged, writer);
    }

    /**
     * The query of a statement whose fragments run on workers, as the statement's handler planned
     * it: an INSERT as an insert (its rows cast to the table's columns), an explained INSERT as its
     * source, the query of a CREATE TABLE AS.
     */
    private static SqlNode queryOf(SqlNode statement)
    {
        SqlNode query = statement;
        if (query instanceof io.ontul.engine.sql.tree.SqlExplainStatement explain) {
            query = explain.statement();
        }
        else if (query instanceof org.apache.calcite.sql.SqlExplain explain) {
            query = explain.getExplicandum();
        }
        if (query instanceof SqlInsert insert && query != statement) {
            query = insert.getSource();
        }
        else if (query instanceof org.apache.calcite.sql.ddl.SqlCreateTable create && create.query != null) {
            query = create.query;
        }
        return query;
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
        return openContext(parallelism());
    }

    /** The statement's memory limit: the session's query_max_memory, else the server's. */
    private long maxMemory()
    {
        return SessionProperties.queryMaxMemory(session.properties(), engine.config());
    }

    /** The worker threads a query of this statement runs on, within its memory limit. */
    private int parallelism()
    {
        return QueryContext.parallelismWithin(maxMemory(), engine.parallelism());
    }

    /** Opens the query's context on {@code parallelism} worker threads, under the statement's entry in the registry. */
    private QueryContext openContext(int parallelism)
    {
        QueryContext[] self = new QueryContext[1];
        self[0] = new QueryContext(queryId, session.user(), engine.rootAllocator(), maxMemory(), engine.workers(), parallelism,
                new org.apache.calcite.rex.RexBuilder(new org.apache.calcite.jdbc.JavaTypeFactoryImpl(io.ontul.engine.type.OntulTypeSystem.INSTANCE)),
                () -> tracked.detach(self[0]));
        self[0].enableSpill(engine.exchange().spillStore());
        tracked.attach(self[0]);
        return self[0];
    }

    @Override
    public QueryResult run(PlannedQuery planned)
    {
        return start(newContext(planned.readsOnlySystemTables()), planned);
    }

    @Override
    public QueryResult runQuery(SqlNode query)
    {
        QueryResult first = run(plan(query));
        if (!SessionProperties.retriesQueries(session.properties())) {
            return first;
        }
        // the statement keeps the slot it was admitted to: the second run takes no other
        return new RetryingQueryResult(first, () -> {
            PlannedQuery again = plan(query);
            return start(openContext(parallelism()), again);
        });
    }

    /** Opens the planned query's operators in {@code context} and returns its streaming result. */
    private static QueryResult start(QueryContext context, PlannedQuery planned)
    {
        try {
            Operator root = planned.root().open(TaskContext.single(context));
            return new StreamingQueryResult(context, root, planned.schema(), () -> { });
        }
        catch (RuntimeException e) {
            context.close();
            throw e;
        }
    }

    @Override
    public void runToEnd(PlannedQuery planned)
    {
        try (QueryResult result = run(planned)) {
            while (result.nextBatch() != null) {
                // drain: EXPLAIN ANALYZE runs the query to completion
            }
        }
    }

    @Override
    public PlannedQuery planInsert(SqlInsert insert, TableHandle table, SqlIdentifier target)
    {
        PlanNode root = planningDeadline().within(() -> planInsertNow(insert, table, target, true));
        if (engine.catalogs().get(table.catalog()).map(Connector::sameTablesOnEveryNode).orElse(false)) {
            // the workers plan the insert too, so they must see its table
            if (!distribute(root)) {
                root = planningDeadline().within(() -> planInsertNow(insert, table, target, false));
                distribute(root);
            }
        }
        return new PlannedQuery(root, table.columns(), false, java.util.Set.of());
    }


    /** @param share whether a subplan read more than once is computed once ({@link #physicalPlanner}) */
    private PlanNode planInsertNow(SqlInsert insert, TableHandle table, SqlIdentifier target, boolean share)
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
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, StatementContext.position(target.getParserPosition())
                    + "Number of INSERT target columns (" + targets + ") does not equal number of source items (" + sources + ")");
        }
        RelRoot relRoot = planner.toOptimizedRel(validated);
        RelNode rel = relRoot.rel;
        if (rel instanceof TableModify modify) {
            rel = modify.getInput();
        }
        return physicalPlanner(rel, share).planRoot(rel);
    }

    @Override
    public long write(String catalog, Supplier<BatchSink> openSink, Schema columns, PlannedQuery planned)
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
            Optional<RemoteSource> writers = remoteWriters(catalog, planned, sink, context);
            if (writers.isPresent()) {
                long rows = writeOnWorkers(context, writers.get(), sink);
                committed = true;
                return rows;
            }
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

    /**
     * The workers that write the rows themselves: when the plan ends in a gather of one
     * fragment from the workers (a scan, filter, projection, join probes: nothing that needs the
     * rows in one place) and the sink takes remote writers, each worker writes its own rows.
     */
    private static Optional<RemoteSource> remoteWriters(String catalog, PlannedQuery planned, BatchSink sink, QueryContext context)
    {
        if (!(planned.root() instanceof GatherNode gather) || gather.remote().isEmpty()) {
            return Optional.empty();
        }
        Optional<byte[]> handle;
        try {
            handle = sink.remoteWriterHandle();
        }
        catch (RuntimeException e) {
            context.close();
            throw e;
        }
        return handle.flatMap(bytes -> gather.remote().get().writing(new FragmentWrite(catalog, bytes)));
    }

    /** Runs the write's fragment on the workers, each writing its rows, and commits what they all wrote as one. */
    private static long writeOnWorkers(QueryContext context, RemoteSource writers, BatchSink sink)
    {
        int streams = writers.streams();
        Operator gather;
        try {
            gather = new io.ontul.engine.operator.exchange.GatherOperator(context, instance -> writers.producer(context, instance, streams), streams);
        }
        catch (RuntimeException e) {
            context.close();
            throw e;
        }
        try (StreamingQueryResult result = new StreamingQueryResult(context, gather, TableWriteOperator.SCHEMA, () -> { })) {
            VectorSchemaRoot batch;
            int reported = 0;
            while ((batch = result.nextBatch()) != null) {
                VarBinaryVector written = (VarBinaryVector) batch.getVector(1);
                for (int row = 0; row < batch.getRowCount(); row++) {
                    sink.addRemoteWrite(written.get(row));
                    reported++;
                }
            }
            if (reported != streams) {
                // every worker's stream ends with its one row: a stream without it ended early
                throw new OntulException(ErrorCode.EXTERNAL_ERROR, "Only " + reported + " of the " + streams + " workers that wrote the rows reported what they wrote; nothing is committed");
            }
        }
        return sink.commit();
    }

    /** What a statement may be under the engine's limits: its length, nesting and grouping sets. */
    static StatementLimits statementLimits(QueryLimits limits)
    {
        return new StatementLimits(limits.maxSqlLength(), limits.maxExpressionDepth(), limits.maxGroupingSets());
    }
}
