package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.sql.SqlKind;

/**
 * Keeps the ORDER BY of ordered aggregates ({@code array_agg(x ORDER BY k)}, {@code string_agg},
 * and {@code ARRAY(SELECT ...)}) through Calcite's decorrelator, which moves an aggregate's
 * arguments when it adds the correlated columns to the aggregate's input but leaves its
 * {@code WITHIN GROUP} keys where they were (and drops their columns when no argument reads
 * them), so that the elements came out ordered by another column. Before decorrelation each
 * ordered call gets a name of its own and its keys' columns as extra arguments; after it, the keys
 * are where those arguments went, and the call gets its arguments and name back.
 */
final class DecorrelatedCollations
{
    private static final String PREFIX = "$ordered";
    private static final Set<SqlKind> ORDERING_ONLY = EnumSet.of(SqlKind.ARRAY_AGG, SqlKind.ARRAY_CONCAT_AGG, SqlKind.LISTAGG, SqlKind.STRING_AGG, SqlKind.GROUP_CONCAT);

    private DecorrelatedCollations() {}

    /** The plan decorrelated by {@code decorrelator}, with the ordered aggregates' keys where their columns went. */
    static RelNode decorrelate(RelNode plan, UnaryOperator<RelNode> decorrelator)
    {
        Map<String, AggregateCall> ordered = new HashMap<>();
        RelNode marked = rewriteCalls(plan, call -> {
            // only aggregates whose ORDER BY orders their values: others (percentile_disc) take their type from it
            if (call.collation.getFieldCollations().isEmpty() || !ORDERING_ONLY.contains(call.getAggregation().getKind())) {
                return call;
            }
            String name = PREFIX + ordered.size();
            ordered.put(name, call);
            // the keys' columns as arguments after the real ones: the decorrelator keeps and moves those
            List<Integer> arguments = new ArrayList<>(call.getArgList());
            call.collation.getFieldCollations().forEach(key -> arguments.add(key.getFieldIndex()));
            return call.withArgList(arguments).rename(name);
        });
        if (ordered.isEmpty()) {
            return decorrelator.apply(plan);
        }
        return rewriteCalls(decorrelator.apply(marked), call -> {
            AggregateCall original = call.getName() == null ? null : ordered.get(call.getName());
            if (original == null) {
                return call;
            }
            int arguments = original.getArgList().size();
            List<RelFieldCollation> originalKeys = original.collation.getFieldCollations();
            List<RelFieldCollation> keys = new ArrayList<>();
            for (int i = 0; i < originalKeys.size(); i++) {
                keys.add(originalKeys.get(i).withFieldIndex(call.getArgList().get(arguments + i)));
            }
            return call.withArgList(List.copyOf(call.getArgList().subList(0, arguments))).withCollation(RelCollations.of(keys)).rename(original.getName());
        });
    }

    private static RelNode rewriteCalls(RelNode plan, UnaryOperator<AggregateCall> rewrite)
    {
        return plan.accept(new RelHomogeneousShuttle()
        {
            @Override
            public RelNode visit(RelNode other)
            {
                RelNode visited = super.visit(other);
                if (!(visited instanceof Aggregate aggregate)) {
                    return visited;
                }
                List<AggregateCall> calls = new ArrayList<>();
                boolean changed = false;
                for (AggregateCall call : aggregate.getAggCallList()) {
                    AggregateCall rewritten = rewrite.apply(call);
                    // by identity: AggregateCall's equals ignores the name
                    changed |= rewritten != call;
                    calls.add(rewritten);
                }
                if (!changed) {
                    return visited;
                }
                return aggregate.copy(aggregate.getTraitSet(), aggregate.getInput(), aggregate.getGroupSet(), aggregate.getGroupSets(), calls);
            }
        });
    }
}
