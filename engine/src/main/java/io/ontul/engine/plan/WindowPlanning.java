package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.rex.RexWindowExclusion;

import io.ontul.engine.operator.sort.SortKey;
import io.ontul.engine.operator.window.WindowGroup.Argument;
import io.ontul.engine.operator.window.WindowGroup.Bound;
import io.ontul.engine.operator.window.WindowGroup.BoundType;
import io.ontul.engine.operator.window.WindowGroup.Function;
import io.ontul.engine.operator.window.WindowGroup;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/** Plans window functions (OVER). */
final class WindowPlanning
{
    private WindowPlanning() {}

    static PlanNode plan(Window window, PhysicalPlanner planner)
    {
        PlanNode input = planner.planGathered(window.getInput());
        int inputCount = window.getInput().getRowType().getFieldCount();
        List<WindowGroup> groups = new ArrayList<>();
        for (Window.Group group : window.groups) {
            if (group.exclude != RexWindowExclusion.EXCLUDE_NO_OTHER) {
                throw new OntulException(ErrorCode.NOT_SUPPORTED, "Window frame exclusion is not supported");
            }
            List<SortKey> orderKeys = new ArrayList<>();
            for (RelFieldCollation collation : group.orderKeys.getFieldCollations()) {
                RelFieldCollation.NullDirection nulls = collation.nullDirection == RelFieldCollation.NullDirection.UNSPECIFIED
                        ? collation.getDirection().defaultNullDirection()
                        : collation.nullDirection;
                orderKeys.add(new SortKey(collation.getFieldIndex(), collation.getDirection().isDescending(), nulls == RelFieldCollation.NullDirection.FIRST));
            }
            List<Function> functions = new ArrayList<>();
            for (Window.RexWinAggCall call : group.aggCalls) {
                functions.add(function(call, window, inputCount));
            }
            groups.add(new WindowGroup(group.keys.toArray(), orderKeys, group.isRows,
                    bound(group.lowerBound, window, inputCount), bound(group.upperBound, window, inputCount), functions));
        }
        return new WindowNode(window.getRowType(), input, groups);
    }

    private static Function function(Window.RexWinAggCall call, Window window, int inputCount)
    {
        String name = call.getOperator().getName();
        if (call.distinct) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, "DISTINCT in window function " + name + " is not supported");
        }
        switch (call.getKind()) {
            case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, NTILE, COUNT, SUM, SUM0, AVG, MIN, MAX -> { }
            case LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE -> {
                if (call.ignoreNulls) {
                    throw new OntulException(ErrorCode.NOT_SUPPORTED, "IGNORE NULLS in window function " + name + " is not supported");
                }
            }
            default -> throw new OntulException(ErrorCode.NOT_SUPPORTED, "Window function " + name + " is not supported");
        }
        List<Argument> arguments = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
            if (operand instanceof RexInputRef ref && ref.getIndex() < inputCount) {
                arguments.add(new Argument(ref.getIndex(), null));
            }
            else {
                arguments.add(new Argument(-1, constant(operand, window, inputCount)));
            }
        }
        return new Function(call.getKind(), name, arguments);
    }

    private static Bound bound(RexWindowBound bound, Window window, int inputCount)
    {
        if (bound.isUnboundedPreceding()) {
            return new Bound(BoundType.UNBOUNDED_PRECEDING, null);
        }
        if (bound.isUnboundedFollowing()) {
            return new Bound(BoundType.UNBOUNDED_FOLLOWING, null);
        }
        if (bound.isCurrentRow()) {
            return new Bound(BoundType.CURRENT_ROW, null);
        }
        RexLiteral offset = constant(bound.getOffset(), window, inputCount);
        if (offset.isNull()) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Window frame offset must not be NULL");
        }
        return new Bound(bound.isPreceding() ? BoundType.PRECEDING : BoundType.FOLLOWING, offset);
    }

    private static RexLiteral constant(RexNode node, Window window, int inputCount)
    {
        if (node instanceof RexInputRef ref && ref.getIndex() >= inputCount) {
            return window.constants.get(ref.getIndex() - inputCount);
        }
        if (node instanceof RexLiteral literal) {
            return literal;
        }
        throw new OntulException(ErrorCode.NOT_SUPPORTED, "Window function argument must be a column or a constant: " + node);
    }
}
