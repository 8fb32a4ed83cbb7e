package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;

/**
 * A stack of filters and projections over a table scan, folded into one filter and one
 * projection over the scan's columns, so that the whole filter can be offered to the connector
 * whatever shape the optimizer left (a projection that trims columns between a filter and its
 * scan, say). Expressions of a projection are inlined where the filter or a later projection uses
 * them; a chain stops at a projection with a non-deterministic expression or one that would grow
 * too large inlined.
 */
record ScanChain(TableScan scan, RexNode filter, List<RexNode> projects, RelDataType rowType)
{
    /** Past this many expression nodes, projections stay separate operators. */
    private static final int MAX_INLINED_NODES = 10_000;

    /** The folded chain, or null if {@code rel} is not filters and projections over a scan. */
    static ScanChain of(RelNode rel)
    {
        if (rel instanceof TableScan scan) {
            List<RexNode> identity = new ArrayList<>();
            for (RelDataTypeField field : scan.getRowType().getFieldList()) {
                identity.add(new RexInputRef(field.getIndex(), field.getType()));
            }
            return new ScanChain(scan, null, identity, scan.getRowType());
        }
        if (rel instanceof Filter filter) {
            ScanChain below = of(filter.getInput());
            if (below == null) {
                return null;
            }
            RexNode condition = inline(filter.getCondition(), below.projects);
            RexNode combined = below.filter == null
                    ? condition
                    : RexUtil.composeConjunction(filter.getCluster().getRexBuilder(), List.of(below.filter, condition));
            return new ScanChain(below.scan, combined, below.projects, filter.getRowType());
        }
        if (rel instanceof Project project) {
            ScanChain below = of(project.getInput());
            if (below == null) {
                return null;
            }
            if (!project.getProjects().stream().allMatch(RexUtil::isDeterministic)) {
                // inlining would evaluate a non-deterministic expression once per use
                return null;
            }
            List<RexNode> projects = project.getProjects().stream().map(expression -> inline(expression, below.projects)).toList();
            if (RexUtil.nodeCount(projects) > MAX_INLINED_NODES) {
                // stacked projections that reuse their inputs grow with every level when inlined
                return null;
            }
            return new ScanChain(below.scan, below.filter, projects, project.getRowType());
        }
        return null;
    }

    private static RexNode inline(RexNode expression, List<RexNode> inputs)
    {
        return expression.accept(new RexShuttle()
        {
            @Override
            public RexNode visitInputRef(RexInputRef ref)
            {
                return inputs.get(ref.getIndex());
            }
        });
    }
}
