package io.ontul.engine.scheduler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ontul.engine.plan.PlanNode;
import io.ontul.spi.cluster.OperatorFigures;

/**
 * A worker's latest fragments with their operators' figures, for the coordinator's EXPLAIN
 * ANALYZE: the figures of a fragment that still runs are the ones so far. Keeps the last
 * {@value #CAPACITY} fragments.
 */
public final class FragmentHistory
{
    static final int CAPACITY = 200;

    private final Map<String, PlanNode> fragments = new LinkedHashMap<>(16, 0.75f, false)
    {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PlanNode> eldest)
        {
            return size() > CAPACITY;
        }
    };

    /** Records the plan of fragment {@code fragment} of query {@code queryId} as this worker runs it. */
    public synchronized void record(String queryId, int fragment, PlanNode root)
    {
        fragments.put(queryId + "/" + fragment, root);
    }

    /** The figures of the fragment's operators, top down and children in order; empty when it is not known. */
    public synchronized List<OperatorFigures> figures(String queryId, int fragment)
    {
        PlanNode root = fragments.get(queryId + "/" + fragment);
        List<OperatorFigures> figures = new ArrayList<>();
        if (root != null) {
            collect(root, figures);
        }
        return figures;
    }

    private static void collect(PlanNode node, List<OperatorFigures> figures)
    {
        figures.add(new OperatorFigures(node.describe(), node.stats().rows(), node.stats().batches(), node.stats().nanos(), node.stats().memoryBytes(), node.stats().spilledBytes()));
        for (PlanNode child : node.children()) {
            collect(child, figures);
        }
    }
}
