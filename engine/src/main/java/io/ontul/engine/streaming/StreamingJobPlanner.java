package io.ontul.engine.streaming;

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
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.ontul.engine.catalog.CatalogManager;
import io.ontul.engine.execution.StatementExecutor;
import io.ontul.engine.plan.FilterProjectNode;
import io.ontul.engine.plan.GatherNode;
import io.ontul.engine.plan.LogicalPlanner;
import io.ontul.engine.plan.PhysicalPlanner;
import io.ontul.engine.plan.PlanNode;
import io.ontul.engine.plan.ScanNode;
import io.ontul.engine.sql.CatalogSchemas;
import io.ontul.spi.Connector;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;
import io.ontul.spi.TableHandle;
import io.ontul.spi.stream.StreamSinkProvider;
import io.ontul.spi.stream.StreamSourceProvider;

/**
 * Plans the INSERT of a streaming job with the query planner, exactly as a batch INSERT is
 * planned, and checks that it can run as a stream: a source table whose catalog streams, a sink
 * table whose catalog has a two-phase sink, compatible column types (the validator's INSERT
 * checks), and filter/projection only.
 */
final class StreamingJobPlanner
{
    private final CatalogManager catalogs;
    private final Optional<String> catalog;
    private final Optional<String> schema;

    StreamingJobPlanner(CatalogManager catalogs, Optional<String> catalog, Optional<String> schema)
    {
        this.catalogs = requireNonNull(catalogs, "catalogs is null");
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.schema = requireNonNull(schema, "schema is null");
    }

    StreamingJobPlan plan(SqlInsert insert)
    {
        SqlIdentifier target = (SqlIdentifier) insert.getTargetTable();
        List<String> sinkName = qualify(target);
        Connector sinkConnector = catalogs.get(sinkName.get(0))
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_FOUND, position(target.getParserPosition()) + "Catalog '" + sinkName.get(0) + "' does not exist"));
        TableHandle sinkTable = sinkConnector.metadata().getTable(sinkName.get(1), sinkName.get(2))
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_FOUND, position(target.getParserPosition()) + "Table '" + String.join(".", sinkName) + "' does not exist"));
        StreamSinkProvider sink = sinkConnector.streamSinkProvider()
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_SUPPORTED, position(target.getParserPosition())
                        + "Streaming jobs cannot write to table '" + sinkTable.qualifiedName() + "': catalog '" + sinkName.get(0) + "' has no exactly-once streaming sink (Iceberg and PostgreSQL catalogs have)"));

        SqlInsert visible = StatementExecutor.withoutHiddenColumns(insert, sinkTable);
        List<String> path = catalog.isEmpty() ? List.of() : schema.isEmpty() ? List.of(catalog.get()) : List.of(catalog.get(), schema.get());
        LogicalPlanner planner = new LogicalPlanner(CatalogSchemas.rootSchema(catalogs), path);
        SqlNode validated = planner.validate(visible);
        RelRoot relRoot = planner.toOptimizedRel(validated);
        RelNode rel = relRoot.rel;
        if (rel instanceof TableModify modify) {
            rel = modify.getInput();
        }
        checkStateless(rel, insert.getSource());

        PhysicalPlanner physical = new PhysicalPlanner(rel.getCluster().getRexBuilder());
        PlanNode node = physical.planRoot(rel);
        if (node instanceof GatherNode) {
            node = node.children().get(0);
        }
        List<FilterProjectNode> filterProjects = new ArrayList<>();
        while (node instanceof FilterProjectNode filterProject) {
            filterProjects.add(filterProject);
            node = node.children().get(0);
        }
        if (!(node instanceof ScanNode scan)) {
            throw notYet(insert.getSource().getParserPosition(), "this query shape (" + node.describe() + ")");
        }
        StreamSourceProvider source = scan.connector().streamSourceProvider()
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_SUPPORTED, position(insert.getSource().getParserPosition())
                        + "Table '" + scan.table().qualifiedName() + "' cannot be read as a stream: its catalog '" + scan.table().catalog() + "' has no streaming source (Kafka has)"));
        return new StreamingJobPlan(scan, filterProjects, source, sinkTable, sink);
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
        SqlSelect select = source instanceof SqlSelect sqlSelect ? sqlSelect : null;
        if (rel instanceof Aggregate) {
            SqlNode at = select == null ? source : select.getGroup() != null ? select.getGroup() : select.getSelectList();
            throw notYet(at.getParserPosition(), "aggregations (GROUP BY, COUNT, SUM, ...)");
        }
        if (rel instanceof Join) {
            throw notYet(select == null ? source.getParserPosition() : select.getFrom().getParserPosition(), "joins");
        }
        if (rel instanceof Window) {
            throw notYet(select == null ? source.getParserPosition() : select.getSelectList().getParserPosition(), "window functions (OVER)");
        }
        if (rel instanceof TableFunctionScan) {
            throw notYet(select == null ? source.getParserPosition() : select.getFrom().getParserPosition(), "window table functions (TUMBLE, HOP, SESSION)");
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
        return new OntulException(ErrorCode.NOT_SUPPORTED, position(pos) + "Streaming jobs do not support " + what + " yet: only filters and projections (WHERE, SELECT expressions) over one source table");
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

    static String position(SqlParserPos pos)
    {
        return pos == null || pos.getLineNum() == 0 ? "" : "line " + pos.getLineNum() + ":" + pos.getColumnNum() + ": ";
    }
}
