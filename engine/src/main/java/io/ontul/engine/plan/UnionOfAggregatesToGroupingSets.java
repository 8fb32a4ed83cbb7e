package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * {@code UNION ALL} of aggregates of one input by different keys, each branch writing NULL
 * where it has no key, is a ROLLUP written by hand (TPC-DS q22, q18, q67 and others in the
 * form engines without ROLLUP run): it becomes one aggregate with those grouping sets, which
 * reads (joins) its input once, and is then aggregated partially on all keys in parallel
 * ({@link PhysicalPlanner}). Calcite expands the common input (a WITH query) at every branch;
 * the branches qualify when their inputs print the same below a projection of their own and one
 * projection over the grouping sets' row answers for every branch: a column is the same key or
 * aggregate in every branch, or NULL in the branches whose grouping set lacks that key.
 */
public final class UnionOfAggregatesToGroupingSets
{
    private UnionOfAggregatesToGroupingSets() {}

    /** {@code rel} with every qualifying union of aggregates rewritten, outermost first (nested UNION ALLs count as one). */
    public static RelNode rewrite(RelNode rel, RelBuilder builder)
    {
        return rel.accept(new RelHomogeneousShuttle()
        {
            @Override
            public RelNode visit(RelNode other)
            {
                if (other instanceof Union union && union.all) {
                    RelNode rewritten = rewrite(union, builder);
                    if (rewritten != null) {
                        return super.visit(rewritten);
                    }
                }
                return super.visit(other);
            }
        });
    }

    /** One branch: its projection over its aggregate, the aggregate, and the expressions its keys and arguments stand for. */
    private record Branch(List<RexNode> output, Aggregate aggregate, List<RexNode> inputExpressions, RelNode common) {}

    private static RelNode rewrite(Union union, RelBuilder builder)
    {
        List<RelNode> inputs = new ArrayList<>();
        flatten(union, inputs);
        List<Branch> branches = new ArrayList<>();
        String commonDigest = null;
        for (RelNode input : inputs) {
            Branch branch = branch(input);
            if (branch == null) {
                return null;
            }
            String digest = RelOptUtil.toString(branch.common(), SqlExplainLevel.DIGEST_ATTRIBUTES) + branch.common().getRowType().getFullTypeString();
            if (commonDigest != null && !commonDigest.equals(digest)) {
                return null;
            }
            commonDigest = digest;
            branches.add(branch);
        }
        RexBuilder rexBuilder = union.getCluster().getRexBuilder();
        // the expressions the combined aggregate reads, each once
        List<RexNode> expressions = new ArrayList<>();
        Map<String, Integer> expressionIndex = new HashMap<>();
        List<ImmutableBitSet> groupSets = new ArrayList<>();
        List<int[]> keyMaps = new ArrayList<>();
        for (Branch branch : branches) {
            ImmutableBitSet.Builder set = ImmutableBitSet.builder();
            int[] keys = branch.aggregate().getGroupSet().toArray();
            int[] keyMap = new int[keys.length];
            for (int k = 0; k < keys.length; k++) {
                keyMap[k] = index(branch.inputExpressions().get(keys[k]), expressions, expressionIndex);
                set.set(keyMap[k]);
            }
            ImmutableBitSet built = set.build();
            if (groupSets.contains(built)) {
                return null;
            }
            groupSets.add(built);
            keyMaps.add(keyMap);
        }
        ImmutableBitSet groupSet = ImmutableBitSet.union(groupSets);
        List<Integer> keyOrder = groupSet.asList();
        List<AggregateCall> calls = new ArrayList<>();
        Map<String, Integer> callIndex = new HashMap<>();
        List<Map<Integer, Integer>> fieldMaps = new ArrayList<>();
        for (int b = 0; b < branches.size(); b++) {
            Branch branch = branches.get(b);
            Map<Integer, Integer> fieldMap = new HashMap<>();
            int[] keyMap = keyMaps.get(b);
            for (int k = 0; k < keyMap.length; k++) {
                fieldMap.put(k, keyOrder.indexOf(keyMap[k]));
            }
            List<AggregateCall> branchCalls = branch.aggregate().getAggCallList();
            for (int c = 0; c < branchCalls.size(); c++) {
                AggregateCall original = branchCalls.get(c);
                if (original.getAggregation().getKind() == SqlKind.GROUPING || original.getAggregation().getKind() == SqlKind.GROUPING_ID
                        || !original.getCollation().getFieldCollations().isEmpty()) {
                    return null;
                }
                List<Integer> arguments = new ArrayList<>();
                for (int argument : original.getArgList()) {
                    arguments.add(index(branch.inputExpressions().get(argument), expressions, expressionIndex));
                }
                int filter = original.filterArg < 0 ? -1 : index(branch.inputExpressions().get(original.filterArg), expressions, expressionIndex);
                AggregateCall mapped = original.copy(arguments, filter, original.distinctKeys, original.getCollation());
                String key = mapped.toString() + ":" + mapped.getType().getFullTypeString();
                Integer index = callIndex.get(key);
                if (index == null) {
                    index = calls.size();
                    callIndex.put(key, index);
                    calls.add(mapped);
                }
                fieldMap.put(keyMap.length + c, keyOrder.size() + index);
            }
            fieldMaps.add(fieldMap);
        }
        // one projection must answer for every branch
        List<RexNode> outputs = new ArrayList<>();
        for (RelDataTypeField field : union.getRowType().getFieldList()) {
            RexNode chosen = null;
            List<RexNode> candidates = new ArrayList<>();
            for (int b = 0; b < branches.size(); b++) {
                RexNode candidate = remap(branches.get(b).output().get(field.getIndex()), fieldMaps.get(b));
                candidates.add(candidate);
                if (!isNullLiteral(candidate)) {
                    if (chosen != null && !chosen.toString().equals(candidate.toString())) {
                        return null;
                    }
                    chosen = candidate;
                }
            }
            if (chosen == null) {
                outputs.add(rexBuilder.makeNullLiteral(field.getType()));
                continue;
            }
            for (int b = 0; b < branches.size(); b++) {
                // a NULL stands where the branch's grouping set lacks the key the column reads
                if (isNullLiteral(candidates.get(b))
                        && !(chosen instanceof RexInputRef ref && ref.getIndex() < keyOrder.size() && !groupSets.get(b).get(keyOrder.get(ref.getIndex())))) {
                    return null;
                }
            }
            outputs.add(chosen);
        }
        builder.push(branches.get(0).common()).project(expressions).aggregate(builder.groupKey(groupSet, groupSets), calls);
        List<RexNode> typed = new ArrayList<>();
        for (RelDataTypeField field : union.getRowType().getFieldList()) {
            // the aggregate's own field types: a key some grouping set lacks is nullable there
            RexNode output = outputs.get(field.getIndex()).accept(new RexShuttle()
            {
                @Override
                public RexNode visitInputRef(RexInputRef ref)
                {
                    return builder.field(ref.getIndex());
                }
            });
            typed.add(output.getType().equals(field.getType()) ? output : rexBuilder.makeCast(field.getType(), output, true, false));
        }
        RelNode rewritten = builder.project(typed, union.getRowType().getFieldNames(), true).build();
        return RelOptUtil.areRowTypesEqual(rewritten.getRowType(), union.getRowType(), false) ? rewritten : null;
    }

    private static void flatten(RelNode rel, List<RelNode> inputs)
    {
        if (rel instanceof Union union && union.all) {
            union.getInputs().forEach(input -> flatten(input, inputs));
        }
        else {
            inputs.add(rel);
        }
    }

    private static Branch branch(RelNode input)
    {
        List<RexNode> output;
        RelNode below = input;
        if (input instanceof Project project) {
            output = project.getProjects();
            below = project.getInput();
        }
        else {
            output = null;
        }
        if (!(below instanceof Aggregate aggregate) || aggregate.getGroupSets().size() != 1) {
            return null;
        }
        if (output == null) {
            output = new ArrayList<>();
            for (RelDataTypeField field : aggregate.getRowType().getFieldList()) {
                output.add(new RexInputRef(field.getIndex(), field.getType()));
            }
        }
        RelNode aggregateInput = aggregate.getInput();
        List<RexNode> inputExpressions = new ArrayList<>();
        RelNode common;
        if (aggregateInput instanceof Project project) {
            inputExpressions.addAll(project.getProjects());
            common = project.getInput();
        }
        else {
            for (RelDataTypeField field : aggregateInput.getRowType().getFieldList()) {
                inputExpressions.add(new RexInputRef(field.getIndex(), field.getType()));
            }
            common = aggregateInput;
        }
        return new Branch(output, aggregate, inputExpressions, common);
    }

    private static int index(RexNode expression, List<RexNode> expressions, Map<String, Integer> indexes)
    {
        return indexes.computeIfAbsent(expression.toString() + ":" + expression.getType().getFullTypeString(), key -> {
            expressions.add(expression);
            return expressions.size() - 1;
        });
    }

    private static RexNode remap(RexNode expression, Map<Integer, Integer> fieldMap)
    {
        return expression.accept(new RexShuttle()
        {
            @Override
            public RexNode visitInputRef(RexInputRef ref)
            {
                return new RexInputRef(fieldMap.get(ref.getIndex()), ref.getType());
            }
        });
    }

    private static boolean isNullLiteral(RexNode node)
    {
        RexNode bare = node;
        while (bare.getKind() == SqlKind.CAST) {
            bare = ((org.apache.calcite.rex.RexCall) bare).getOperands().get(0);
        }
        return bare instanceof RexLiteral literal && literal.isNull();
    }
}
