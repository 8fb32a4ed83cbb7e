package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.util.ImmutableBitSet;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.aggregate.Accumulator;
import io.ontul.engine.operator.aggregate.Accumulators;
import io.ontul.engine.operator.aggregate.AggregationStep;
import io.ontul.engine.operator.aggregate.HashAggregateOperator;

/**
 * Hash aggregation (GROUP BY, grouping sets, global aggregates). Runs either whole, or as the
 * partial step inside each parallel pipeline or the final step that merges partial results
 * (see {@link PhysicalPlanner}).
 */
public final class AggregateNode
        extends PlanNode
{
    /** One output column: how to make its accumulator from the input column types. */
    public record AccumulatorSpec(String description, Function<List<RelDataType>, Accumulator> factory, int filterColumn) {}

    private final int[] keyColumns;
    private final boolean[][] groupSetMembership;
    private final List<AccumulatorSpec> specs;
    private final AggregationStep step;
    private final boolean splittable;

    public AggregateNode(RelDataType rowType, PlanNode child, ImmutableBitSet groupSet, List<ImmutableBitSet> groupSets, List<AggregateCall> calls)
    {
        this(rowType, child, groupSet.toArray(), membership(groupSet.toArray(), groupSets), specs(groupSet.toArray(), membership(groupSet.toArray(), groupSets), calls), AggregationStep.SINGLE, false);
    }

    public AggregateNode(RelDataType rowType, PlanNode child, int[] keyColumns, boolean[][] groupSetMembership, List<AccumulatorSpec> specs, AggregationStep step, boolean splittable)
    {
        super(rowType, List.of(child));
        this.keyColumns = keyColumns;
        this.groupSetMembership = groupSetMembership;
        this.specs = List.copyOf(specs);
        this.step = step;
        this.splittable = splittable;
    }

    static boolean[][] membership(int[] keyColumns, List<ImmutableBitSet> groupSets)
    {
        boolean[][] membership = new boolean[groupSets.size()][keyColumns.length];
        for (int set = 0; set < groupSets.size(); set++) {
            for (int k = 0; k < keyColumns.length; k++) {
                membership[set][k] = groupSets.get(set).get(keyColumns[k]);
            }
        }
        return membership;
    }

    private static List<AccumulatorSpec> specs(int[] keyColumns, boolean[][] membership, List<AggregateCall> calls)
    {
        List<AccumulatorSpec> specs = new ArrayList<>();
        for (AggregateCall call : calls) {
            int[] positions = new int[call.getArgList().size()];
            for (int a = 0; a < positions.length; a++) {
                int column = call.getArgList().get(a);
                for (int k = 0; k < keyColumns.length; k++) {
                    if (keyColumns[k] == column) {
                        positions[a] = k;
                    }
                }
            }
            specs.add(new AccumulatorSpec(call.toString(), inputTypes -> Accumulators.create(call, inputTypes, positions, membership), call.filterArg));
        }
        return specs;
    }

    @Override
    public boolean splittable()
    {
        return splittable && children().get(0).splittable();
    }

    @Override
    protected Operator create(TaskContext task)
    {
        return new HashAggregateOperator(task.query(), children().get(0).open(task), schema(), keyColumns, groupSetMembership, accumulators(), filterColumns(), step,
                splittable() ? task.localInstances() : 1, stats());
    }

    /**
     * What the aggregation is made of, for a streaming job's window aggregation: the same
     * aggregation fed by the job rather than by this node's child.
     *
     * @param keyColumns the GROUP BY keys, as positions in the child's rows
     * @param accumulators fresh accumulators, one per aggregate call
     */
    public record Parts(Schema outputSchema, int[] keyColumns, boolean[][] groupSetMembership, List<Accumulator> accumulators, int[] filterColumns) {}

    public Parts parts()
    {
        return new Parts(schema(), keyColumns.clone(), groupSetMembership, accumulators(), filterColumns());
    }

    private List<Accumulator> accumulators()
    {
        List<RelDataType> inputTypes = children().get(0).rowType().getFieldList().stream().map(RelDataTypeField::getType).toList();
        List<Accumulator> accumulators = new ArrayList<>();
        for (AccumulatorSpec spec : specs) {
            accumulators.add(spec.factory().apply(inputTypes));
        }
        return accumulators;
    }

    private int[] filterColumns()
    {
        return specs.stream().mapToInt(AccumulatorSpec::filterColumn).toArray();
    }

    @Override
    public String describe()
    {
        RelDataType input = children().get(0).rowType();
        List<String> keys = new ArrayList<>();
        for (int key : keyColumns) {
            keys.add(input.getFieldList().get(key).getName());
        }
        return "HashAggregate" + step.label() + " keys=" + keys + (groupSetMembership.length > 1 ? " groupingSets=" + groupSetMembership.length : "") + " "
                + withNames(specs.stream().map(AccumulatorSpec::description).toList().toString(), input);
    }
}
