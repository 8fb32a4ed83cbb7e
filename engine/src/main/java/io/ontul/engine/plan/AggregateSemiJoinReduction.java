package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * Aggregates only the groups a join can use. For {@code Join(Aggregate(input) GROUP BY k, small)
 * ON k = small.key}, groups whose key is not in {@code small} are computed and then dropped; a
 * semi join of the aggregate's input with {@code small} on the same keys removes their rows
 * first (a "magic set"). Decorrelated scalar subqueries (TPC-H q17: the average quantity per part,
 * for the few parts of one brand) take this shape. The other side is then evaluated twice, so
 * the rewrite applies only when that side reads at most half the table rows the aggregate's
 * input reads (it is cheap to evaluate twice); else the part of it the keys come from (through
 * filters, projections and inner joins) serves if it does (TPC-H q02: the parts of one size and
 * type, not their join with partsupp). Only the join keys that are grouping columns count (q02
 * joins on the lowest cost too). It is tried in two places of planning:
 * <ul>
 * <li>{@link #beforeJoinOrder}, where a decorrelated subquery's aggregate still joins the outer
 * query it served, already joined with what filters it (TPC-H q20: partsupp of the 'forest'
 * parts, which the join order chosen later may join only after the aggregate): when the other
 * side is estimated smaller than the aggregate's input (estimates of such filters are crude);</li>
 * <li>{@link #afterJoinOrder}: when the other side is estimated at most a tenth of the aggregate's
 * input.</li>
 * </ul>
 */
final class AggregateSemiJoinReduction
{
    private static final double MIN_REDUCTION = 10;
    /** The other side reads at most this share of the table rows the aggregate's input reads. */
    private static final double MAX_SCAN_SHARE = 0.5;

    private final boolean beforeJoinOrder;

    private AggregateSemiJoinReduction(boolean beforeJoinOrder)
    {
        this.beforeJoinOrder = beforeJoinOrder;
    }

    static RelNode beforeJoinOrder(RelNode rel)
    {
        return new AggregateSemiJoinReduction(true).rewrite(rel);
    }

    static RelNode afterJoinOrder(RelNode rel)
    {
        return new AggregateSemiJoinReduction(false).rewrite(rel);
    }

    private RelNode rewrite(RelNode rel)
    {
        return rel.accept(new RelHomogeneousShuttle()
        {
            @Override
            public RelNode visit(RelNode other)
            {
                RelNode visited = super.visit(other);
                if (visited instanceof LogicalJoin join && join.getJoinType() == JoinRelType.INNER) {
                    RelNode reduced = reduce(join, true);
                    if (reduced == null) {
                        reduced = reduce(join, false);
                    }
                    return reduced == null ? join : reduced;
                }
                return visited;
            }
        });
    }

    private RelNode reduce(LogicalJoin join, boolean aggregateOnLeft)
    {
        RelNode aggregateSide = aggregateOnLeft ? join.getLeft() : join.getRight();
        RelNode otherSide = aggregateOnLeft ? join.getRight() : join.getLeft();
        // the aggregate may sit under a projection of its columns
        LogicalProject project = aggregateSide instanceof LogicalProject p ? p : null;
        RelNode below = project == null ? aggregateSide : project.getInput();
        if (!(below instanceof LogicalAggregate aggregate) || aggregate.getGroupSets().size() != 1 || aggregate.getGroupCount() == 0) {
            return null;
        }
        if (aggregate.getInput() instanceof LogicalJoin input && input.getJoinType() == JoinRelType.SEMI) {
            return null;
        }
        JoinInfo info = join.analyzeCondition();
        if (info.nullExclusionFlags.contains(false)) {
            // IS NOT DISTINCT FROM keys would need a null-safe semi join
            return null;
        }
        List<Integer> aggregateKeys = aggregateOnLeft ? info.leftKeys : info.rightKeys;
        List<Integer> joinOtherKeys = aggregateOnLeft ? info.rightKeys : info.leftKeys;
        // the keys that are grouping columns: a join also on an aggregate's value (TPC-H q02:
        // the lowest cost) still keeps only the groups whose grouping keys the other side has
        List<Integer> groupColumns = new ArrayList<>();
        List<Integer> otherKeys = new ArrayList<>();
        for (int i = 0; i < aggregateKeys.size(); i++) {
            int column = aggregateKeys.get(i);
            if (project != null) {
                if (!(project.getProjects().get(column) instanceof RexInputRef ref)) {
                    continue;
                }
                column = ref.getIndex();
            }
            if (column < aggregate.getGroupCount()) {
                groupColumns.add(column);
                otherKeys.add(joinOtherKeys.get(i));
            }
        }
        if (groupColumns.isEmpty()) {
            return null;
        }
        RelMetadataQuery mq = join.getCluster().getMetadataQuery();
        Double inputRows = mq.getRowCount(aggregate.getInput());
        if (inputRows == null) {
            return null;
        }
        // the other side, or the part of it its keys come from when the whole would cost too much
        // to evaluate twice (TPC-H q02: the parts of one size and type, not their join with partsupp)
        KeySource source = new KeySource(otherSide, otherKeys);
        while (source != null && !worthIt(source.rel(), aggregate, inputRows, mq)) {
            source = source.narrower();
        }
        if (source == null) {
            return null;
        }
        RelNode keys = source.rel();
        otherKeys = source.keys();
        RexBuilder rexBuilder = join.getCluster().getRexBuilder();
        int inputCount = aggregate.getInput().getRowType().getFieldCount();
        List<RexNode> conditions = new ArrayList<>();
        for (int i = 0; i < groupColumns.size(); i++) {
            int inputColumn = aggregate.getGroupSet().nth(groupColumns.get(i));
            int otherColumn = otherKeys.get(i);
            conditions.add(rexBuilder.makeCall(SqlStdOperatorTable.EQUALS,
                    new RexInputRef(inputColumn, aggregate.getInput().getRowType().getFieldList().get(inputColumn).getType()),
                    new RexInputRef(inputCount + otherColumn, keys.getRowType().getFieldList().get(otherColumn).getType())));
        }
        RelNode semi = LogicalJoin.create(aggregate.getInput(), keys, List.of(), RexUtil.composeConjunction(rexBuilder, conditions), Set.of(), JoinRelType.SEMI);
        RelNode reducedAggregate = aggregate.copy(aggregate.getTraitSet(), List.of(semi));
        if (project != null) {
            reducedAggregate = project.copy(project.getTraitSet(), List.of(reducedAggregate));
        }
        return aggregateOnLeft
                ? join.copy(join.getTraitSet(), List.of(reducedAggregate, join.getRight()))
                : join.copy(join.getTraitSet(), List.of(join.getLeft(), reducedAggregate));
    }

    /** Whether semi-joining the aggregate's input with {@code keys} reduces it enough for what evaluating {@code keys} again costs. */
    private boolean worthIt(RelNode keys, LogicalAggregate aggregate, double inputRows, RelMetadataQuery mq)
    {
        Double keyRows = mq.getRowCount(keys);
        // no fewer keys than groups: it may keep every group (TPC-H q15: all suppliers), and the
        // aggregate would no longer match its twin as a common subplan
        Double groups = mq.getDistinctRowCount(aggregate.getInput(), aggregate.getGroupSet(), null);
        return keyRows != null
                && (groups == null || keyRows < groups)
                && (beforeJoinOrder ? keyRows < inputRows : keyRows * MIN_REDUCTION <= inputRows)
                && scannedRows(keys, mq) <= MAX_SCAN_SHARE * scannedRows(aggregate.getInput(), mq);
    }

    /**
     * A plan whose rows hold, in columns {@code keys}, every key value the join's other side
     * holds (and maybe more): the other side itself, or an input it takes those columns from
     * unchanged.
     */
    private record KeySource(RelNode rel, List<Integer> keys)
    {
        /** The input this plan takes all its key columns from, through a filter, a projection of them or an inner join; null if none. */
        KeySource narrower()
        {
            if (rel instanceof LogicalFilter filter) {
                return new KeySource(filter.getInput(), keys);
            }
            if (rel instanceof LogicalProject project) {
                List<Integer> mapped = new ArrayList<>();
                for (int key : keys) {
                    if (!(project.getProjects().get(key) instanceof RexInputRef ref)) {
                        return null;
                    }
                    mapped.add(ref.getIndex());
                }
                return new KeySource(project.getInput(), mapped);
            }
            if (rel instanceof LogicalJoin join && (join.getJoinType() == JoinRelType.INNER || join.getJoinType() == JoinRelType.SEMI)) {
                int leftCount = join.getLeft().getRowType().getFieldCount();
                if (keys.stream().allMatch(key -> key < leftCount)) {
                    return new KeySource(join.getLeft(), keys);
                }
                if (join.getJoinType() == JoinRelType.INNER && keys.stream().allMatch(key -> key >= leftCount)) {
                    return new KeySource(join.getRight(), keys.stream().map(key -> key - leftCount).toList());
                }
            }
            return null;
        }
    }

    /** The estimated rows of the tables {@code rel} reads, summed: what evaluating it once costs, roughly. */
    private static double scannedRows(RelNode rel, RelMetadataQuery mq)
    {
        double[] rows = {0};
        new RelVisitor()
        {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent)
            {
                if (node instanceof TableScan) {
                    Double scanned = mq.getRowCount(node);
                    rows[0] += scanned == null ? Double.POSITIVE_INFINITY : scanned;
                }
                super.visit(node, ordinal, parent);
            }
        }.go(rel);
        return rows[0];
    }
}
