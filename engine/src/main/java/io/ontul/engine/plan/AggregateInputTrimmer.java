package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mapping;
import org.apache.calcite.util.mapping.MappingType;
import org.apache.calcite.util.mapping.Mappings;

/**
 * Narrows the input of an aggregate over a table scan to the columns the aggregate reads. The
 * optimizer merges projections into aggregates, which leaves {@code count(*)} right over a scan of
 * every column of the table; with a projection in between, the scan reads only what is needed.
 */
final class AggregateInputTrimmer
{
    private AggregateInputTrimmer() {}

    /**
     * The aggregate over a projection of the input columns it reads, when its input is a scan with
     * filters and projections ({@link ScanChain}) producing more; otherwise the aggregate itself.
     * An aggregate that reads no column keeps the first: a scan needs a column to count rows.
     * The result has the same row type.
     */
    static Aggregate trimmed(Aggregate aggregate)
    {
        RelNode input = aggregate.getInput();
        RelDataType inputType = input.getRowType();
        int fieldCount = inputType.getFieldCount();
        for (AggregateCall call : aggregate.getAggCallList()) {
            if (!call.collation.getFieldCollations().isEmpty() || call.distinctKeys != null || !call.rexList.isEmpty()) {
                // these refer to input fields in more places than the argument list
                return aggregate;
            }
        }
        ImmutableBitSet used = ImmutableBitSet.of(RelOptUtil.getAllFields(aggregate));
        if (used.isEmpty()) {
            used = ImmutableBitSet.of(0);
        }
        if (used.cardinality() == fieldCount || ScanChain.of(input) == null) {
            return aggregate;
        }
        Mapping mapping = Mappings.create(MappingType.INVERSE_SURJECTION, fieldCount, used.cardinality());
        List<RexNode> projects = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int field : used) {
            mapping.set(field, projects.size());
            projects.add(RexInputRef.of(field, inputType));
            names.add(inputType.getFieldNames().get(field));
        }
        RelNode project = LogicalProject.create(input, List.of(), projects, names);
        List<ImmutableBitSet> groupSets = aggregate.getGroupSets().stream().map(groupSet -> Mappings.apply(mapping, groupSet)).toList();
        List<AggregateCall> calls = aggregate.getAggCallList().stream().map(call -> call.transform(mapping)).toList();
        return aggregate.copy(aggregate.getTraitSet(), project, Mappings.apply(mapping, aggregate.getGroupSet()), groupSets, calls);
    }
}
