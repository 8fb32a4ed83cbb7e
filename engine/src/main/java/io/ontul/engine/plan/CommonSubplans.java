package io.ontul.engine.plan;

import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlExplainLevel;

/**
 * Finds the subplans a query computes more than once: Calcite expands a WITH query at each place
 * it is named (TPC-DS q14 names {@code cross_items} and {@code avg_sales} three times each, q04
 * its {@code year_total} six times), and the same subquery may stand in several branches. Two
 * subtrees are the same when their plans print the same (operators, expressions, tables, row
 * type). The physical planner plans each such subplan once, under a {@link SharedSubplanNode}.
 * <p>
 * Only subplans worth keeping qualify: those that join, aggregate, rank or intersect (a scan
 * with a filter is cheaper read twice than kept) and whose result is small ({@link #small}), and only deterministic ones ({@code random()}
 * read twice gives two values). Only the outermost repetition counts: a repeated subplan inside
 * a repeated one is planned once with it, so it is shared only if it also stands elsewhere.
 */
final class CommonSubplans
{
    private static final CommonSubplans NONE = new CommonSubplans(new IdentityHashMap<>(), Set.of());
    private static final double MAX_KEPT_ROWS = 1_000_000;

    private final Map<RelNode, String> keys;
    private final Set<String> shared;

    private CommonSubplans(Map<RelNode, String> keys, Set<String> shared)
    {
        this.keys = keys;
        this.shared = shared;
    }

    static CommonSubplans none()
    {
        return NONE;
    }

    static CommonSubplans find(RelNode root)
    {
        Map<RelNode, String> keys = new IdentityHashMap<>();
        Map<String, Integer> occurrences = new HashMap<>();
        Set<String> candidates = new HashSet<>();
        collect(root, keys, occurrences, candidates);
        candidates.removeIf(key -> occurrences.get(key) < 2);
        // drop candidates that repeat only inside a repeated candidate, until none does
        while (true) {
            Map<String, Integer> planned = new HashMap<>();
            countPlanned(root, keys, candidates, planned);
            if (!candidates.removeIf(key -> planned.getOrDefault(key, 0) < 2)) {
                break;
            }
        }
        return candidates.isEmpty() ? NONE : new CommonSubplans(keys, Set.copyOf(candidates));
    }

    /** The key of {@code rel} when the planner should share it, else null. */
    String sharedKey(RelNode rel)
    {
        String key = keys.get(rel);
        return key != null && shared.contains(key) ? key : null;
    }

    /** Returns whether {@code rel}'s subtree is deterministic; records its key, and whether it qualifies. */
    private static boolean collect(RelNode rel, Map<RelNode, String> keys, Map<String, Integer> occurrences, Set<String> candidates)
    {
        boolean deterministic = deterministic(rel);
        boolean heavy = rel instanceof Join || rel instanceof Aggregate || rel instanceof Window || rel instanceof Intersect || rel instanceof Minus;
        for (RelNode input : rel.getInputs()) {
            deterministic &= collect(input, keys, occurrences, candidates);
            heavy |= heavy(input);
        }
        String key = RelOptUtil.toString(rel, SqlExplainLevel.DIGEST_ATTRIBUTES) + rel.getRowType().getFullTypeString();
        keys.put(rel, key);
        occurrences.merge(key, 1, Integer::sum);
        if (deterministic && heavy && small(rel)) {
            candidates.add(key);
        }
        return deterministic;
    }

    /**
     * Whether keeping {@code rel}'s result costs less than computing it again: a grouping result,
     * or one estimated at most {@link #MAX_KEPT_ROWS} rows. A big join result is cheaper
     * recomputed by each reader, in parallel and with the reader's own filters pushed into it,
     * than kept (TPC-DS q02 read a kept 2-million-row join 5 times slower than it computed it).
     */
    private static boolean small(RelNode rel)
    {
        if (rel instanceof Aggregate || rel instanceof Intersect || rel instanceof Minus) {
            return true;
        }
        Double rows = rel.getCluster().getMetadataQuery().getRowCount(rel);
        return rows != null && rows <= MAX_KEPT_ROWS;
    }

    private static boolean heavy(RelNode rel)
    {
        if (rel instanceof Join || rel instanceof Aggregate || rel instanceof Window || rel instanceof Intersect || rel instanceof Minus) {
            return true;
        }
        return rel.getInputs().stream().anyMatch(CommonSubplans::heavy);
    }

    /** Counts the candidates the planner would reach: it plans a shared subplan's inside once. */
    private static void countPlanned(RelNode rel, Map<RelNode, String> keys, Set<String> candidates, Map<String, Integer> planned)
    {
        String key = keys.get(rel);
        if (candidates.contains(key) && planned.merge(key, 1, Integer::sum) > 1) {
            return;
        }
        for (RelNode input : rel.getInputs()) {
            countPlanned(input, keys, candidates, planned);
        }
    }

    private static boolean deterministic(RelNode rel)
    {
        boolean[] deterministic = {true};
        rel.accept(new RexShuttle()
        {
            @Override
            public RexNode visitCall(RexCall call)
            {
                // dynamic functions (CURRENT_TIMESTAMP) take one value per query
                if (!call.getOperator().isDeterministic()) {
                    deterministic[0] = false;
                }
                return super.visitCall(call);
            }
        });
        return deterministic[0];
    }
}
