package io.ontul.engine.stream.plan;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.ontul.engine.catalog.CatalogManager;
import io.ontul.engine.plan.AggregateNode;
import io.ontul.engine.plan.FilterProjectNode;
import io.ontul.engine.plan.GatherNode;
import io.ontul.engine.plan.LogicalPlanner;
import io.ontul.engine.plan.PhysicalPlanner;
import io.ontul.engine.plan.PlanNode;
import io.ontul.engine.plan.ScanNode;
import io.ontul.engine.plan.SessionWindowNode;
import io.ontul.engine.plan.WindowTableFunctionNode;
import io.ontul.engine.security.Privilege;
import io.ontul.engine.security.Securable;
import io.ontul.engine.security.UserAccess;
import io.ontul.engine.sql.CatalogSchemas;
import io.ontul.engine.sql.HiddenColumns;
import io.ontul.engine.sql.parser.SqlPositions;
import io.ontul.engine.stream.job.StreamingJobOptions;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;
import io.ontul.spi.stream.StreamSinkProvider;
import io.ontul.spi.stream.StreamSourceProvider;
import io.ontul.spi.stream.WatermarkDeclaration;

/**
 * Plans the INSERT of a streaming job with the query planner, exactly as a batch INSERT is
 * planned, and checks that it can run as a stream: a source table whose catalog streams, a sink
 * table whose catalog has a two-phase sink, compatible column types (the validator's INSERT
 * checks), and filters and projections, optionally under an aggregation grouped by the
 * window_end of a TUMBLE or HOP window over the source's declared event-time column.
 */
public final class StreamingJobPlanner
{
    private final UserAccess access;
    private final CatalogManager catalogs;
    private final Optional<String> catalog;
    private final Optional<String> schema;

    /** @param access what the job's owner may do: SELECT on its sources, INSERT into its sink and rejects table */
    public StreamingJobPlanner(CatalogManager catalogs, Optional<String> catalog, Optional<String> schema, UserAccess access)
    {
        this.access = requireNonNull(access, "access is null");
        this.catalogs = requireNonNull(catalogs, "catalogs is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.schema = requireNonNull(schema, "schema is null");
    }

    /** Rejects tables have these columns, in this order (TIMESTAMP of any precision). */
    static final String REJECTS_COLUMNS = "(job VARCHAR, source VARCHAR, payload VARCHAR, reason VARCHAR, rejected_at TIMESTAMP(3))";

    public StreamingJobPlan plan(SqlInsert insert, StreamingJobOptions options)
    {
        StreamingJobPlan plan = plan(insert);
        if (options.rejectsTable().isEmpty()) {
            return plan;
        }
        return plan.withRejects(rejectsTable(options.rejectsTable().get()));
    }

    /** The table of option 'rejects.table': it exists, its catalog has a streaming sink, and it has {@link #REJECTS_COLUMNS}. */
    private StreamingJobPlan.RejectsTable rejectsTable(String name)
    {
        List<String> parts = List.of(name.split("\\.", -1));
        if (parts.isEmpty() || parts.size() > 3 || parts.stream().anyMatch(String::isBlank)) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Invalid table name '" + name + "' for streaming job option '" + StreamingJobOptions.REJECTS_TABLE + "': use catalog.schema.table");
        }
        List<String> qualified = qualify(new SqlIdentifier(parts, SqlParserPos.ZERO));
        String display = String.join(".", qualified);
        Connector connector = catalogs.get(qualified.get(0))
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_FOUND, "Catalog '" + qualified.get(0) + "' of the rejects table '" + display + "' does not exist"));
        TableHandle table = connector.metadata().getTable(qualified.get(1), qualified.get(2))
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_FOUND, "Rejects table '" + display + "' (option '" + StreamingJobOptions.REJECTS_TABLE
                        + "') does not exist; create it with CREATE TABLE " + display + " " + REJECTS_COLUMNS));
        StreamSinkProvider sink = connector.streamSinkProvider()
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_SUPPORTED, "Streaming jobs cannot write the rejects table '" + display + "': catalog '"
                        + qualified.get(0) + "' has no exactly-once streaming sink (Iceberg, PostgreSQL and Kafka catalogs have)"));
        List<org.apache.arrow.vector.types.pojo.Field> fields = table.columns().getFields();
        List<String> expected = List.of("job", "source", "payload", "reason", "rejected_at");
        boolean matches = fields.size() == expected.size();
        for (int i = 0; matches && i < fields.size(); i++) {
            org.apache.arrow.vector.types.pojo.ArrowType type = fields.get(i).getType();
            matches = fields.get(i).getName().equalsIgnoreCase(expected.get(i))
                    && (i < 4 ? type instanceof org.apache.arrow.vector.types.pojo.ArrowType.Utf8 : type instanceof org.apache.arrow.vector.types.pojo.ArrowType.Timestamp);
        }
        if (!matches) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Rejects table '" + display + "' must have the columns " + REJECTS_COLUMNS + "; it has "
                    + fields.stream().map(field -> field.getName() + " " + field.getType()).toList());
        }
        access.check(Privilege.INSERT, Securable.table(qualified.get(0), qualified.get(1), qualified.get(2)));
        return new StreamingJobPlan.RejectsTable(table, sink);
    }

    public StreamingJobPlan plan(SqlInsert insert)
    {
        SqlIdentifier target = (SqlIdentifier) insert.getTargetTable();
        List<String> sinkName = qualify(target);
        Connector sinkConnector = catalogs.get(sinkName.get(0))
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_FOUND, position(target.getParserPosition()) + "Catalog '" + sinkName.get(0) + "' does not exist"));
        TableHandle sinkTable = sinkConnector.metadata().getTable(sinkName.get(1), sinkName.get(2))
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_FOUND, position(target.getParserPosition()) + "Table '" + String.join(".", sinkName) + "' does not exist"));
        StreamSinkProvider sink = sinkConnector.streamSinkProvider()
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_SUPPORTED, position(target.getParserPosition())
                        + "Streaming jobs cannot write to table '" + sinkTable.qualifiedName() + "': catalog '" + sinkName.get(0) + "' has no exactly-once streaming sink (Iceberg, PostgreSQL and Kafka catalogs have)"));

        access.check(Privilege.INSERT, Securable.table(sinkName.get(0), sinkName.get(1), sinkName.get(2)));
        SqlInsert visible = HiddenColumns.withoutHiddenColumns(insert, sinkTable);
        List<String> path = catalog.isEmpty() ? List.of() : schema.isEmpty() ? List.of(catalog.get()) : List.of(catalog.get(), schema.get());
        LogicalPlanner planner = new LogicalPlanner(CatalogSchemas.rootSchema(catalogs, io.ontul.engine.system.InformationSchema.forUser(catalogs.views(), access)), path, access);
        SqlNode validated = planner.validate(visible);
        RelRoot relRoot = planner.toOptimizedRel(validated);
        RelNode rel = relRoot.rel;
        if (rel instanceof TableModify modify) {
            rel = modify.getInput();
        }
        PhysicalPlanner physical = new PhysicalPlanner(rel.getCluster().getRexBuilder(), false);
        SqlNode source = insert.getSource();

        List<RelNode> above = new ArrayList<>();
        RelNode node = rel;
        while (node instanceof Project || node instanceof Filter) {
            above.add(node);
            node = node.getInput(0);
        }
        if (node instanceof Aggregate aggregate) {
            return windowed(aggregate, above, physical, source, sinkTable, sink);
        }
        checkStateless(rel, source);
        FedInput fed = feed(withoutGather(physical.planRoot(rel)), source);
        if (fed.session() != null) {
            throw notYet(source.getParserPosition(), "SESSION windows without an aggregation");
        }
        return new StreamingJobPlan(fed.scan(), fed.feed(), fed.input(), Optional.empty(), List.of(), streamSource(fed.scan(), source), Optional.empty(), sinkTable, sink);
    }

    /**
     * A job whose query aggregates: it must group by the window_end of a TUMBLE, HOP or SESSION
     * over the source. Aggregations may be stacked (COUNT(DISTINCT x) becomes an aggregation by
     * the keys and x under one by the keys): each groups by window_end, and a window's rows go
     * from one to the next when the watermark passes its end.
     */
    private StreamingJobPlan windowed(Aggregate aggregate, List<RelNode> above, PhysicalPlanner physical, SqlNode source, TableHandle sinkTable, StreamSinkProvider sink)
    {
        SqlSelect select = source instanceof SqlSelect sqlSelect ? sqlSelect : null;
        SqlParserPos groupPosition = (select == null ? source : select.getGroup() != null ? select.getGroup() : select.getSelectList()).getParserPosition();
        // outermost first: each aggregation with the projections and filters right above it
        List<Aggregate> aggregates = new ArrayList<>();
        List<List<RelNode>> aboveEach = new ArrayList<>();
        aggregates.add(aggregate);
        aboveEach.add(above);
        RelNode below = aggregate.getInput();
        while (true) {
            List<RelNode> between = new ArrayList<>();
            while (below instanceof Project || below instanceof Filter) {
                between.add(below);
                below = below.getInput(0);
            }
            if (!(below instanceof Aggregate inner)) {
                break;
            }
            aggregates.add(inner);
            aboveEach.add(between);
            below = inner.getInput();
        }
        if (!(below instanceof TableFunctionScan windowFunction)) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, position(groupPosition)
                    + "Streaming jobs aggregate per event-time window only: GROUP BY window_start, window_end, ... over FROM TABLE(TUMBLE(...)), TABLE(HOP(...)) or TABLE(SESSION(...))");
        }
        checkStateless(windowFunction.getInput(0), source);
        int[] windowEndKeys = new int[aggregates.size()];
        for (int i = 0; i < aggregates.size(); i++) {
            Aggregate each = aggregates.get(i);
            if (each.getAggCallList().stream().anyMatch(call -> call.isDistinct())) {
                throw notYet(groupPosition, "this DISTINCT aggregate");
            }
            windowEndKeys[i] = -1;
            List<Integer> keys = each.getGroupSet().asList();
            for (int k = 0; k < keys.size() && windowEndKeys[i] < 0; k++) {
                if (isWindowEnd(each.getInput(), keys.get(k))) {
                    windowEndKeys[i] = k;
                }
            }
            if (windowEndKeys[i] < 0) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(groupPosition)
                        + "The GROUP BY of a streaming job must include window_end (and window_start) of its window table function: a window's rows are written once the watermark passes its end");
            }
            int windowEndColumn = keys.get(windowEndKeys[i]);
            if (!each.getGroupSets().stream().allMatch(set -> set.get(windowEndColumn))) {
                throw notYet(groupPosition, "grouping sets without window_end (GROUPING SETS, ROLLUP and CUBE must keep window_end in every set)");
            }
        }

        Aggregate innermost = aggregates.get(aggregates.size() - 1);
        FedInput fed = feed(withoutGather(physical.planRoot(innermost.getInput())), source);
        StreamSourceProvider streamSource = streamSource(fed.scan(), source);
        TableHandle table = fed.scan().table();
        WatermarkDeclaration watermark = streamSource.watermark(table)
                .orElseThrow(() -> new OntulException(ErrorCode.INVALID_ARGUMENT, position(select == null ? source.getParserPosition() : select.getFrom().getParserPosition())
                        + "Table '" + table.qualifiedName() + "' declares no event time: windows in a streaming job need a watermark; set 'watermark.column' (and 'watermark.delay') in the table's WITH options"));
        String timeColumn = sourceColumn(fed.timeColumnInput(), fed.timeColumn());
        if (!timeColumn.equalsIgnoreCase(watermark.column())) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(select == null ? source.getParserPosition() : select.getFrom().getParserPosition())
                    + fed.kind() + " in a streaming job must use the event-time column of table '" + table.qualifiedName() + "' ('" + watermark.column()
                    + "', its 'watermark.column'), not '" + timeColumn + "'");
        }
        List<StreamingJobPlan.WindowAggregationPlan> stages = new ArrayList<>();
        PlanNode stageInput = fed.aggregationInput();
        for (int i = aggregates.size() - 1; i >= 0; i--) {
            Aggregate each = aggregates.get(i);
            long microsPerUnit = each.getRowType().getFieldList().get(windowEndKeys[i]).getType().getPrecision() > 3 ? 1 : 1000;
            AggregateNode aggregateNode = new AggregateNode(each.getRowType(), stageInput, each.getGroupSet(), each.getGroupSets(), each.getAggCallList());
            StreamFeedNode resultFeed = new StreamFeedNode(each.getRowType());
            PlanNode output = resultFeed;
            List<RelNode> chain = aboveEach.get(i);
            for (int j = chain.size() - 1; j >= 0; j--) {
                RelNode rel = chain.get(j);
                output = rel instanceof Project project
                        ? new FilterProjectNode(project.getRowType(), output, null, project.getProjects())
                        : new FilterProjectNode(rel.getRowType(), output, ((Filter) rel).getCondition(), identity(rel.getRowType()));
            }
            stages.add(new StreamingJobPlan.WindowAggregationPlan(aggregateNode, windowEndKeys[i], microsPerUnit, resultFeed, output));
            stageInput = output;
        }
        return new StreamingJobPlan(fed.scan(), fed.feed(), fed.input(), Optional.ofNullable(fed.session()), stages, streamSource, Optional.of(watermark), sinkTable, sink);
    }

    /** Whether column {@code column} of {@code node} is the window_end of the window table function below, passed on unchanged. */
    private static boolean isWindowEnd(RelNode node, int column)
    {
        if (node instanceof Project project) {
            return project.getProjects().get(column) instanceof RexInputRef reference && isWindowEnd(project.getInput(), reference.getIndex());
        }
        if (node instanceof Filter filter) {
            return isWindowEnd(filter.getInput(), column);
        }
        if (node instanceof Aggregate aggregate) {
            return column < aggregate.getGroupCount() && isWindowEnd(aggregate.getInput(), aggregate.getGroupSet().nth(column));
        }
        if (node instanceof TableFunctionScan function && function.getInputs().size() == 1) {
            return column >= function.getInput(0).getRowType().getFieldCount() && function.getRowType().getFieldNames().get(column).equalsIgnoreCase("window_end");
        }
        return false;
    }

    /**
     * The planned input with its scan replaced by a feed for polled batches. With a SESSION
     * window, {@code input} ends below it and {@code session} holds it with the nodes above it.
     *
     * @param window the TUMBLE or HOP node, or null
     */
    private record FedInput(ScanNode scan, StreamFeedNode feed, PlanNode input, WindowTableFunctionNode window, StreamingJobPlan.SessionStage session)
    {
        /** The node whose input holds the window's time column, and the column. */
        public PlanNode timeColumnInput()
        {
            return window != null ? window.children().get(0) : session.input();
        }

        public int timeColumn()
        {
            return window != null ? window.function().timeColumn() : session.function().timeColumn();
        }

        public String kind()
        {
            return window != null ? window.function().kind() : "SESSION";
        }

        /** What the aggregation reads: the input, or the nodes above the session window. */
        public PlanNode aggregationInput()
        {
            return session != null ? session.output() : input;
        }
    }

    private static FedInput feed(PlanNode node, SqlNode source)
    {
        if (node instanceof ScanNode scan) {
            StreamFeedNode feed = new StreamFeedNode(scan.rowType());
            return new FedInput(scan, feed, feed, null, null);
        }
        if (node instanceof FilterProjectNode filterProject) {
            FedInput below = feed(node.children().get(0), source);
            if (below.session() != null) {
                StreamingJobPlan.SessionStage session = below.session();
                return new FedInput(below.scan(), below.feed(), below.input(), null, session.withOutput(filterProject.withChild(session.output())));
            }
            return new FedInput(below.scan(), below.feed(), filterProject.withChild(below.input()), below.window(), null);
        }
        if (node instanceof WindowTableFunctionNode window) {
            FedInput below = feed(node.children().get(0), source);
            if (below.session() == null && below.window() == null) {
                WindowTableFunctionNode fedWindow = window.withChild(below.input());
                return new FedInput(below.scan(), below.feed(), fedWindow, fedWindow, null);
            }
        }
        if (node instanceof SessionWindowNode session) {
            FedInput below = feed(withoutGather(node.children().get(0)), source);
            if (below.session() == null && below.window() == null) {
                StreamFeedNode sessionFeed = new StreamFeedNode(session.rowType());
                long microsPerUnit = session.rowType().getFieldList().get(session.rowType().getFieldCount() - 1).getType().getPrecision() > 3 ? 1 : 1000;
                return new FedInput(below.scan(), below.feed(), below.input(), null,
                        new StreamingJobPlan.SessionStage(session.function(), below.input(), session.schema(), microsPerUnit, sessionFeed, sessionFeed));
            }
        }
        throw notYet(source.getParserPosition(), "this query shape (" + node.describe() + ")");
    }

    /** The source column that column {@code index} of {@code node} passes on unchanged, or "" when it is computed. */
    private static String sourceColumn(PlanNode node, int index)
    {
        while (node instanceof FilterProjectNode filterProject) {
            if (!(filterProject.projections().get(index) instanceof RexInputRef reference)) {
                return "";
            }
            index = reference.getIndex();
            node = node.children().get(0);
        }
        return node.rowType().getFieldNames().get(index);
    }

    private static PlanNode withoutGather(PlanNode node)
    {
        return node instanceof GatherNode ? node.children().get(0) : node;
    }

    private static StreamSourceProvider streamSource(ScanNode scan, SqlNode source)
    {
        return scan.connector().streamSourceProvider()
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_SUPPORTED, position(source.getParserPosition())
                        + "Table '" + scan.table().qualifiedName() + "' cannot be read as a stream: its catalog '" + scan.table().catalog() + "' has no streaming source (Kafka has)"));
    }

    private static List<RexNode> identity(RelDataType rowType)
    {
        List<RexNode> references = new ArrayList<>();
        for (RelDataTypeField field : rowType.getFieldList()) {
            references.add(new RexInputRef(field.getIndex(), field.getType()));
        }
        return references;
    }

    private static void checkStateless(RelNode rel, SqlNode source)
    {
        if (rel instanceof Project || rel instanceof Filter || rel instanceof Calc) {
            checkStateless(rel.getInput(0), source);
            return;
        }
        if (rel instanceof TableScan) {
            return;
        }
        if (rel instanceof TableFunctionScan && rel.getInputs().size() == 1) {
            checkStateless(rel.getInput(0), source);
            return;
        }
        SqlSelect select = source instanceof SqlSelect sqlSelect ? sqlSelect : null;
        if (rel instanceof Aggregate) {
            SqlNode at = select == null ? source : select.getGroup() != null ? select.getGroup() : select.getSelectList();
            throw notYet(at.getParserPosition(), "aggregations below other operators");
        }
        if (rel instanceof Join) {
            throw notYet(select == null ? source.getParserPosition() : select.getFrom().getParserPosition(), "joins");
        }
        if (rel instanceof Window) {
            throw notYet(select == null ? source.getParserPosition() : select.getSelectList().getParserPosition(), "window functions (OVER)");
        }
        if (rel instanceof Sort) {
            throw notYet(source.getParserPosition(), "ORDER BY, LIMIT and OFFSET");
        }
        if (rel instanceof SetOp) {
            throw notYet(source.getParserPosition(), "UNION, INTERSECT and EXCEPT");
        }
        throw notYet(source.getParserPosition(), "this query shape (" + rel.getRelTypeName() + ")");
    }

    private static OntulException notYet(SqlParserPos pos, String what)
    {
        return new OntulException(ErrorCode.NOT_SUPPORTED, position(pos) + "Streaming jobs do not support " + what
                + " yet: they run filters and projections over one source table, optionally aggregated per TUMBLE or HOP window");
    }

    private List<String> qualify(SqlIdentifier identifier)
    {
        List<String> names = identifier.names;
        return switch (names.size()) {
            case 1 -> List.of(defaultCatalog(), defaultSchema(), names.get(0));
            case 2 -> List.of(defaultCatalog(), names.get(0), names.get(1));
            default -> List.of(names.get(names.size() - 3), names.get(names.size() - 2), names.get(names.size() - 1));
        };
    }

    private String defaultCatalog()
    {
        return catalog.orElseThrow(() -> new OntulException(ErrorCode.INVALID_ARGUMENT, "No catalog selected: qualify the name (catalog.schema.table) or run USE catalog.schema"));
    }

    private String defaultSchema()
    {
        return schema.orElseThrow(() -> new OntulException(ErrorCode.INVALID_ARGUMENT, "No schema selected: qualify the name (catalog.schema.table) or run USE catalog.schema"));
    }

    public static String position(SqlParserPos pos)
    {
        return SqlPositions.prefix(pos);
    }
}
