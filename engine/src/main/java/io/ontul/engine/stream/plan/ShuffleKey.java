package io.ontul.engine.stream.plan;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.apache.calcite.rex.RexInputRef;

import io.ontul.engine.plan.FilterProjectNode;
import io.ontul.engine.plan.PlanNode;

/**
 * The key a windowed job's rows are hashed by into key groups, found in every place those rows
 * and their state appear, so that every group of every stage of the job lives on one window task:
 * <ul>
 * <li>one window aggregation over TUMBLE or HOP: all its GROUP BY keys (window included);</li>
 * <li>stacked aggregations (COUNT(DISTINCT) is planned as an aggregation by the keys and the
 * distinct argument under one by the keys; windows over windows): the innermost aggregation's
 * keys that every outer aggregation passes on and groups by in every grouping set, so that what
 * one task fires from an inner aggregation is all an outer group needs;</li>
 * <li>a SESSION window: its key columns ({@code DESCRIPTOR(key, ...)}), which every aggregation
 * above it must group by (a session is a key's; groups that mix keys would need every task's
 * sessions).</li>
 * </ul>
 * The same key values hash alike wherever they are: a key reaches each stage unchanged (only
 * column references between stages count), so a state row's key group, taken from a checkpoint,
 * is the group its rows were sent to, and a job may restart with another parallelism.
 *
 * @param sent the key's columns in the rows the source tasks send: the innermost aggregation's
 * state rows (keys first), or, with a SESSION window, the rows as they are
 * @param sessionState the key's columns in the session window's state rows (the rows as they are), or empty
 * @param aggregationStates the key's columns in each aggregation's state rows, innermost first
 * @param unkeyable why the job has no such key (then it runs as one task, and the columns are none), or empty
 */
public record ShuffleKey(int[] sent, int[] sessionState, List<int[]> aggregationStates, Optional<String> unkeyable)
{
    public ShuffleKey
    {
        sent = sent.clone();
        sessionState = sessionState.clone();
        aggregationStates = aggregationStates.stream().map(int[]::clone).toList();
        requireNonNull(unkeyable, "unkeyable is null");
    }

    @Override
    public int[] sent()
    {
        return sent.clone();
    }

    @Override
    public int[] sessionState()
    {
        return sessionState.clone();
    }

    /** The key of {@code plan}, a windowed job. */
    static ShuffleKey of(StreamingJobPlan plan)
    {
        List<StreamingJobPlan.WindowAggregationPlan> stages = plan.aggregations();
        if (stages.isEmpty()) {
            throw new IllegalArgumentException("a stateless job has no key");
        }
        // candidates: the innermost aggregation's key positions; each followed outwards
        int candidates = stages.get(0).aggregate().parts().keyColumns().length;
        int[][] positions = new int[candidates][stages.size()];
        for (int key = 0; key < candidates; key++) {
            positions[key][0] = key;
        }
        for (int stage = 0; stage + 1 < stages.size(); stage++) {
            StreamingJobPlan.WindowAggregationPlan inner = stages.get(stage);
            int innerKeyCount = inner.aggregate().parts().keyColumns().length;
            int[] outerKeys = stages.get(stage + 1).aggregate().parts().keyColumns();
            // which outer key passes on each inner key (the first, should two)
            int[] outerOf = new int[innerKeyCount];
            Arrays.fill(outerOf, -1);
            for (int outer = outerKeys.length - 1; outer >= 0; outer--) {
                int origin = origin(inner.output(), inner.resultFeed(), outerKeys[outer]);
                if (origin >= 0 && origin < innerKeyCount) {
                    outerOf[origin] = outer;
                }
            }
            for (int key = 0; key < candidates; key++) {
                int at = positions[key][stage];
                positions[key][stage + 1] = at < 0 ? -1 : outerOf[at];
            }
        }
        // a key an aggregation leaves out of one of its grouping sets spans tasks in that set's groups;
        // the innermost one's state rows carry the NULL it leaves, which hashes alike, unless its
        // input is a session window's rows, hashed before it
        int firstWhole = plan.session().isPresent() ? 0 : 1;
        List<Integer> kept = new ArrayList<>();
        for (int key = 0; key < candidates; key++) {
            boolean everywhere = true;
            for (int stage = 0; stage < stages.size() && everywhere; stage++) {
                everywhere = positions[key][stage] >= 0 && (stage < firstWhole || inEverySet(stages.get(stage), positions[key][stage]));
            }
            if (everywhere) {
                kept.add(key);
            }
        }
        if (plan.session().isEmpty()) {
            int[] sent = kept.stream().mapToInt(key -> positions[key][0]).toArray();
            return new ShuffleKey(sent, new int[0], states(positions, kept, stages.size()), Optional.empty());
        }

        StreamingJobPlan.SessionStage session = plan.session().get();
        int[] sessionKeys = session.function().keyColumns();
        if (sessionKeys.length == 0) {
            return unkeyable("a SESSION window without key columns (DESCRIPTOR(key, ...)): its sessions span every key", stages.size());
        }
        int inputColumns = session.input().schema().getFields().size();
        int[] innermostKeys = stages.get(0).aggregate().parts().keyColumns();
        int[] sessionColumnOf = new int[candidates];
        List<Integer> sessionKept = new ArrayList<>();
        List<Integer> covered = new ArrayList<>();
        for (int key : kept) {
            int origin = origin(session.output(), session.feed(), innermostKeys[key]);
            boolean isSessionKey = origin >= 0 && origin < inputColumns && Arrays.stream(sessionKeys).anyMatch(column -> column == origin);
            if (isSessionKey && !covered.contains(origin)) {
                sessionColumnOf[key] = origin;
                sessionKept.add(key);
                covered.add(origin);
            }
        }
        if (covered.size() < sessionKeys.length) {
            return unkeyable("a SESSION window whose key columns are not all in the GROUP BY of every aggregation above it", stages.size());
        }
        int[] sent = sessionKept.stream().mapToInt(key -> sessionColumnOf[key]).toArray();
        return new ShuffleKey(sent, sent, states(positions, sessionKept, stages.size()), Optional.empty());
    }

    private static boolean inEverySet(StreamingJobPlan.WindowAggregationPlan stage, int key)
    {
        for (boolean[] set : stage.aggregate().parts().groupSetMembership()) {
            if (!set[key]) {
                return false;
            }
        }
        return true;
    }

    /** A key of no columns (a job that runs as one task needs none) and why there is no other. */
    private static ShuffleKey unkeyable(String why, int stages)
    {
        return new ShuffleKey(new int[0], new int[0], java.util.Collections.nCopies(stages, new int[0]), Optional.of(why));
    }

    private static List<int[]> states(int[][] positions, List<Integer> keys, int stages)
    {
        List<int[]> states = new ArrayList<>();
        for (int stage = 0; stage < stages; stage++) {
            int at = stage;
            states.add(keys.stream().mapToInt(key -> positions[key][at]).toArray());
        }
        return states;
    }

    /**
     * The column of {@code feed}'s rows that column {@code column} of {@code node}'s rows passes
     * on unchanged (through filters and column references), or -1 when it is computed.
     */
    private static int origin(PlanNode node, PlanNode feed, int column)
    {
        while (node != feed) {
            if (!(node instanceof FilterProjectNode filterProject) || !(filterProject.projections().get(column) instanceof RexInputRef reference)) {
                return -1;
            }
            column = reference.getIndex();
            node = filterProject.children().get(0);
        }
        return column;
    }
}
