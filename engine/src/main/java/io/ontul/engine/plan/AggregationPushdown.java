package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

import io.ontul.engine.sql.ConnectorTable;
import io.ontul.engine.type.ArrowTypes;
import io.ontul.spi.AggregateFunction.Kind;
import io.ontul.spi.AggregateFunction;
import io.ontul.spi.Aggregation;
import io.ontul.spi.OntulException;
import io.ontul.spi.ScanSpec;

/**
 * Offers a GROUP BY over one table scan to the table's connector
 * ({@link io.ontul.spi.Connector#supportsAggregation}). Only a plain shape goes: one grouping
 * set of columns, COUNT, SUM, MIN, MAX and AVG of columns without DISTINCT or FILTER, and a
 * filter that went down to the scan in full; then the connector returns the aggregate's rows.
 */
final class AggregationPushdown
{
    private AggregationPushdown() {}

    /** The scan that returns the rows of {@code aggregate}, computed by the connector; null if it cannot or will not. */
    static ScanNode plan(Aggregate aggregate, RexBuilder rexBuilder)
    {
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            return null;
        }
        ScanChain chain = ScanChain.of(aggregate.getInput());
        if (chain == null) {
            return null;
        }
        ConnectorTable table = chain.scan().getTable().unwrap(ConnectorTable.class);
        if (table == null) {
            return null;
        }
        List<String> tableColumns = chain.scan().getRowType().getFieldNames();
        List<String> grouping = new ArrayList<>();
        for (int key : aggregate.getGroupSet()) {
            Optional<String> column = column(chain.projects().get(key), tableColumns);
            if (column.isEmpty()) {
                return null;
            }
            grouping.add(column.get());
        }
        List<AggregateFunction> functions = new ArrayList<>();
        for (AggregateCall call : aggregate.getAggCallList()) {
            Optional<AggregateFunction> function = function(call, chain.projects(), tableColumns);
            if (function.isEmpty()) {
                return null;
            }
            functions.add(function.get());
        }
        if (grouping.isEmpty() && functions.isEmpty()) {
            return null;
        }
        ScanFilters filters = ScanFilters.of(rexBuilder, chain.filter(), tableColumns);
        if (!filters.complete()) {
            return null;
        }
        Set<String> columns = new LinkedHashSet<>(grouping);
        functions.forEach(function -> function.column().ifPresent(columns::add));
        ScanSpec scan = new ScanSpec(List.copyOf(columns), filters.predicates(), filters.disjunctions(), OptionalLong.empty(),
                Optional.of(new Aggregation(grouping, functions)));
        if (!table.connector().supportsAggregation(table.handle(), scan)) {
            return null;
        }
        return new ScanNode(aggregate.getRowType(), table.connector(), table.handle(), scan);
    }

    private static Optional<AggregateFunction> function(AggregateCall call, List<RexNode> projects, List<String> tableColumns)
    {
        if (call.isDistinct() || call.isApproximate() || call.hasFilter() || call.distinctKeys != null || !call.collation.getFieldCollations().isEmpty()) {
            return Optional.empty();
        }
        Kind kind = switch (call.getAggregation().getKind()) {
            case COUNT -> call.getArgList().isEmpty() ? Kind.COUNT_ALL : Kind.COUNT;
            case SUM -> Kind.SUM;
            case MIN -> Kind.MIN;
            case MAX -> Kind.MAX;
            case AVG -> Kind.AVG;
            default -> null;
        };
        if (kind == null || call.getArgList().size() != (kind == Kind.COUNT_ALL ? 0 : 1)) {
            return Optional.empty();
        }
        Optional<String> column = Optional.empty();
        if (kind != Kind.COUNT_ALL) {
            column = column(projects.get(call.getArgList().get(0)), tableColumns);
            if (column.isEmpty()) {
                return Optional.empty();
            }
        }
        ArrowType outputType;
        try {
            outputType = ArrowTypes.toField(call.getName() == null ? "aggregate" : call.getName(), call.getType()).getType();
        }
        catch (OntulException e) {
            return Optional.empty();
        }
        return Optional.of(new AggregateFunction(kind, column, outputType));
    }

    /** The table column an expression of the chain's projection is, if it is one. */
    private static Optional<String> column(RexNode expression, List<String> tableColumns)
    {
        return expression instanceof RexInputRef ref ? Optional.of(tableColumns.get(ref.getIndex())) : Optional.empty();
    }
}
