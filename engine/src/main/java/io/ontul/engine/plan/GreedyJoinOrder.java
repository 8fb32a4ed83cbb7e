package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Orders the joins of a large inner multi-join greedily, the way "greedy operator ordering" does
 * (Fegaras, 1998): every table starts as a tree of its own; then, again and again, the two trees
 * joined by some condition whose join is estimated to give the fewest rows
 * ({@link JoinRowCountEstimator}: key/foreign-key joins keep the other side's rows) become one
 * tree, until one is left. Trees no condition connects are joined last, smallest first. The
 * trees may be bushy; the physical planner then builds each hash table on the smaller side.
 *
 * <p>Calcite's {@code LoptOptimizeJoinRule} tries every table as the first one and prices every
 * candidate tree it grows from it, which for 64 tables takes seconds; this takes a number of row
 * estimates that grows with the number of tables times the conditions each touches. It applies
 * above {@value #MIN_TABLES} tables, where the exhaustive search stops paying for itself, and to
 * inner joins only (a multi-join with outer joins keeps Calcite's ordering, which respects them).
 */
public final class GreedyJoinOrder
        extends RelOptRule
{
    /**
     * Multi-joins of more tables than this are ordered greedily. Calcite's search over 12 tables
     * takes tens of milliseconds, over 18 (TPC-DS q64) about 0.4 s and over 20 up to 0.8 s.
     */
    public static final int MIN_TABLES = 12;

    public static final GreedyJoinOrder RULE = new GreedyJoinOrder();

    private GreedyJoinOrder()
    {
        super(operand(MultiJoin.class, any()), "GreedyJoinOrder");
    }

    @Override
    public boolean matches(RelOptRuleCall call)
    {
        MultiJoin join = call.rel(0);
        return join.getInputs().size() > MIN_TABLES
                && !join.isFullOuterJoin()
                && join.getJoinTypes().stream().allMatch(type -> type == JoinRelType.INNER)
                && join.getPostJoinFilter() == null;
    }

    @Override
    public void onMatch(RelOptRuleCall call)
    {
        MultiJoin multiJoin = call.rel(0);
        call.transformTo(order(multiJoin, call.getMetadataQuery(), call.builder()));
    }

    /** A join tree built so far: its plan, the tables it joins, and where each output column sits in the multi-join's row. */
    private record Tree(RelNode rel, ImmutableBitSet tables, int[] columns, double rows) {}

    /** A condition of the multi-join, with the tables it reads. */
    private record Condition(RexNode condition, ImmutableBitSet tables) {}

    private static RelNode order(MultiJoin multiJoin, RelMetadataQuery mq, RelBuilder builder)
    {
        RexBuilder rexBuilder = multiJoin.getCluster().getRexBuilder();
        List<RelNode> inputs = multiJoin.getInputs();
        int[] tableOfColumn = new int[multiJoin.getRowType().getFieldCount()];
        List<Tree> trees = new ArrayList<>();
        int start = 0;
        for (int table = 0; table < inputs.size(); table++) {
            RelNode input = inputs.get(table);
            int width = input.getRowType().getFieldCount();
            int[] columns = new int[width];
            for (int i = 0; i < width; i++) {
                columns[i] = start + i;
                tableOfColumn[start + i] = table;
            }
            start += width;
            trees.add(new Tree(input, ImmutableBitSet.of(table), columns, rows(mq, input)));
        }
        List<Condition> pending = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(multiJoin.getJoinFilter())) {
            ImmutableBitSet.Builder tables = ImmutableBitSet.builder();
            RelOptUtil.InputFinder.bits(conjunct).forEach(column -> tables.set(tableOfColumn[column]));
            pending.add(new Condition(conjunct, tables.build()));
        }
        // a condition on one table (or none) filters that table's tree before any join
        for (int i = 0; i < trees.size(); i++) {
            Tree tree = trees.get(i);
            List<RexNode> own = take(pending, tables -> tables.cardinality() <= 1 && tree.tables().contains(tables));
            if (!own.isEmpty()) {
                RelNode filtered = builder.push(tree.rel()).filter(remap(own, tree.columns(), rexBuilder)).build();
                trees.set(i, new Tree(filtered, tree.tables(), tree.columns(), rows(mq, filtered)));
            }
        }
        while (trees.size() > 1) {
            Tree bestLeft = null;
            Tree bestRight = null;
            RelNode best = null;
            double bestRows = Double.POSITIVE_INFINITY;
            for (int i = 0; i < trees.size(); i++) {
                for (int j = i + 1; j < trees.size(); j++) {
                    Tree a = trees.get(i);
                    Tree b = trees.get(j);
                    ImmutableBitSet both = a.tables().union(b.tables());
                    if (!connects(pending, a.tables(), b.tables(), both)) {
                        continue;
                    }
                    Tree left = a.rows() >= b.rows() ? a : b;
                    Tree right = left == a ? b : a;
                    RelNode candidate = join(left, right, conditionsWithin(pending, both), rexBuilder);
                    double rows = rows(mq, candidate);
                    if (best == null || rows < bestRows) {
                        bestRows = rows;
                        bestLeft = left;
                        bestRight = right;
                        best = candidate;
                    }
                }
            }
            if (best == null) {
                // nothing connects the trees left: a cross product of the two smallest
                trees.sort((x, y) -> Double.compare(x.rows(), y.rows()));
                bestRight = trees.get(0);
                bestLeft = trees.get(1);
                ImmutableBitSet both = bestLeft.tables().union(bestRight.tables());
                best = join(bestLeft, bestRight, conditionsWithin(pending, both), rexBuilder);
                bestRows = rows(mq, best);
            }
            ImmutableBitSet both = bestLeft.tables().union(bestRight.tables());
            take(pending, both::contains);
            int[] columns = Arrays.copyOf(bestLeft.columns(), bestLeft.columns().length + bestRight.columns().length);
            System.arraycopy(bestRight.columns(), 0, columns, bestLeft.columns().length, bestRight.columns().length);
            trees.remove(bestLeft);
            trees.remove(bestRight);
            trees.add(new Tree(best, both, columns, bestRows));
        }
        Tree result = trees.get(0);
        builder.push(result.rel());
        if (!pending.isEmpty()) {
            builder.filter(remap(pending.stream().map(Condition::condition).toList(), result.columns(), rexBuilder));
        }
        // the multi-join's columns in its own order
        int[] position = new int[result.columns().length];
        for (int i = 0; i < position.length; i++) {
            position[result.columns()[i]] = i;
        }
        List<RexNode> projections = new ArrayList<>();
        for (int column = 0; column < position.length; column++) {
            projections.add(builder.field(position[column]));
        }
        return builder.project(projections, multiJoin.getRowType().getFieldNames(), true).build();
    }

    private static double rows(RelMetadataQuery mq, RelNode rel)
    {
        Double rows = mq.getRowCount(rel);
        return rows == null ? Double.MAX_VALUE : rows;
    }

    /** Whether a pending condition reads both trees (and nothing outside them). */
    private static boolean connects(List<Condition> pending, ImmutableBitSet a, ImmutableBitSet b, ImmutableBitSet both)
    {
        for (Condition condition : pending) {
            if (condition.tables().intersects(a) && condition.tables().intersects(b) && both.contains(condition.tables())) {
                return true;
            }
        }
        return false;
    }

    private static List<RexNode> conditionsWithin(List<Condition> pending, ImmutableBitSet tables)
    {
        List<RexNode> within = new ArrayList<>();
        for (Condition condition : pending) {
            if (tables.contains(condition.tables())) {
                within.add(condition.condition());
            }
        }
        return within;
    }

    /** Removes and returns the pending conditions whose tables pass the test. */
    private static List<RexNode> take(List<Condition> pending, java.util.function.Predicate<ImmutableBitSet> test)
    {
        List<RexNode> taken = new ArrayList<>();
        pending.removeIf(condition -> {
            if (test.test(condition.tables())) {
                taken.add(condition.condition());
                return true;
            }
            return false;
        });
        return taken;
    }

    private static RelNode join(Tree left, Tree right, List<RexNode> conditions, RexBuilder rexBuilder)
    {
        int[] columns = Arrays.copyOf(left.columns(), left.columns().length + right.columns().length);
        System.arraycopy(right.columns(), 0, columns, left.columns().length, right.columns().length);
        RexNode condition = conditions.isEmpty() ? rexBuilder.makeLiteral(true) : remap(conditions, columns, rexBuilder);
        return LogicalJoin.create(left.rel(), right.rel(), List.of(), condition, java.util.Set.of(), JoinRelType.INNER);
    }

    /** The conjunction of conditions over the multi-join's row, rewritten over a tree whose columns are {@code columns}. */
    private static RexNode remap(List<RexNode> conditions, int[] columns, RexBuilder rexBuilder)
    {
        int[] position = new int[Arrays.stream(columns).max().orElse(-1) + 1];
        Arrays.fill(position, -1);
        for (int i = 0; i < columns.length; i++) {
            position[columns[i]] = i;
        }
        RexShuttle shuttle = new RexShuttle()
        {
            @Override
            public RexNode visitInputRef(RexInputRef ref)
            {
                return new RexInputRef(position[ref.getIndex()], ref.getType());
            }
        };
        return RexUtil.composeConjunction(rexBuilder, conditions.stream().map(condition -> condition.accept(shuttle)).toList());
    }
}
