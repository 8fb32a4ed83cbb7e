package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.util.ImmutableBitSet;

import io.ontul.engine.operator.HashAggregateOperator;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.aggregate.Accumulator;
import io.ontul.engine.operator.aggregate.Accumulators;

/** Hash aggregation (GROUP BY, grouping sets, global aggregates). */
public final class AggregateNode
        extends PlanNode
{
    private final int[] keyColumns;
    private final boolean[][] groupSetMembership;
    private final List<AggregateCall> calls;

    public AggregateNode(RelDataType rowType, PlanNode child, ImmutableBitSet groupSet, List<ImmutableBitSet> groupSets, List<AggregateCall> calls)
    {
        super(rowType, List.of(child));
        this.keyColumns = groupSet.toArray();
        this.groupSetMembership = new boolean[groupSets.size()][keyColumns.length];
        for (int set = 0; set < groupSets.size(); set++) {
            for (int k = 0; k < keyColumns.length; k++) {
                groupSetMembership[set][k] = groupSets.get(set).get(keyColumns[k]);
            }
        }
        this.calls = List.copyOf(calls);
    }

    @Override
    public boolean splittable()
    {
        return false;
    }

    @Override
    protected Operator create(TaskContext task)
    {
        List<RelDataType> inputTypes = children().get(0).rowType().getFieldList().stream().map(RelDataTypeField::getType).toList();
        List<Accumulator> accumulators = new ArrayList<>();
        int[] filters = new int[calls.size()];
        for (int i = 0; i < calls.size(); i++) {
            AggregateCall call = calls.get(i);
            int[] positions = new int[call.getArgList().size()];
            for (int a = 0; a < positions.length; a++) {
                int column = call.getArgList().get(a);
                for (int k = 0; k < keyColumns.length; k++) {
                    if (keyColumns[k] == column) {
                        positions[a] = k;
                    }
                }
            }
            accumulators.add(Accumulators.create(call, inputTypes, positions, groupSetMembership));
            filters[i] = call.filterArg;
        }
        return new HashAggregateOperator(task.query(), children().get(0).open(task), schema(), keyColumns, groupSetMembership, accumulators, filters, stats());
    }

    @Override
    public String describe()
    {
        return "HashAggregate keys=" + java.util.Arrays.toString(keyColumns) + (groupSetMembership.length > 1 ? " groupingSets=" + groupSetMembership.length : "") + " " + calls;
    }
}
