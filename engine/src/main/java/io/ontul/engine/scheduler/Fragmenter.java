package io.ontul.engine.scheduler;

import java.util.ArrayList;
import java.util.List;

import io.ontul.engine.plan.GatherNode;
import io.ontul.engine.plan.HashExchangeNode;
import io.ontul.engine.plan.JoinNode;
import io.ontul.engine.plan.PlanNode;
import io.ontul.engine.plan.ScanNode;

/**
 * Cuts a physical plan into the fragments that may run on the workers. A fragment is the
 * splittable pipeline right below an exchange (a gather, or the hash repartition between a
 * partial and a final aggregation) when
 * <ul>
 * <li>it scans at least one table on its splittable path (the part whose instances split the input),</li>
 * <li>that path holds no exchange of its own (the rows of one key must meet in one place) other
 *     than a hash repartition whose input is a fragment itself (the workers then send each other
 *     the rows of each other's keys), nor a join that emits build rows after all its probe rows
 *     have passed (RIGHT, FULL, and semi and anti joins that hash their left side: the matches of
 *     every worker's probe rows would have to meet), and</li>
 * <li>every table it reads, also in its join build sides, reads the same on every node
 *     ({@link io.ontul.spi.Connector#readableOnEveryNode}, at the version the coordinator planned).</li>
 * </ul>
 * The plan is searched top down, children in order: the first fragments found are the largest.
 * Inside a fragment, the exchanges that feed its joins' build sides are cut the same way: such a
 * nested fragment runs once, shared out over the workers, and every worker of its parent reads all
 * of its output (a broadcast exchange); below a hash repartition on its split path, each worker
 * of the parent reads the rows of its own share of the keys (a repartition between workers). The coordinator and the workers cut the same plan the
 * same way, so a fragment is named by its index.
 */
public final class Fragmenter
{
    private Fragmenter() {}

    public static List<Fragment> fragments(PlanNode root)
    {
        List<Fragment> found = new ArrayList<>();
        visit(root, -1, found);
        return found;
    }

    private static void visit(PlanNode node, int parent, List<Fragment> found)
    {
        if ((node instanceof GatherNode || node instanceof HashExchangeNode) && distributable(node.children().get(0))) {
            PlanNode child = node.children().get(0);
            Fragment fragment = new Fragment(found.size(), node, child, fingerprint(child), parent);
            found.add(fragment);
            // its split path holds no exchange: those below it feed its build sides
            for (PlanNode grandchild : child.children()) {
                visit(grandchild, fragment.index(), found);
            }
            return;
        }
        for (PlanNode child : node.children()) {
            visit(child, parent, found);
        }
    }

    static boolean distributable(PlanNode node)
    {
        return node.splittable() && scansOnSplitPath(node) && !needsOneProcess(node) && readsSharedTablesOnly(node);
    }

    private static boolean scansOnSplitPath(PlanNode node)
    {
        if (node instanceof ScanNode || repartitionsBetweenWorkers(node)) {
            return true;
        }
        return node.children().stream().filter(PlanNode::splittable).anyMatch(Fragmenter::scansOnSplitPath);
    }

    private static boolean needsOneProcess(PlanNode node)
    {
        if (node instanceof HashExchangeNode && !repartitionsBetweenWorkers(node) || node instanceof JoinNode join && join.joinType().tracksBuildMatches()) {
            return true;
        }
        return node.children().stream().filter(PlanNode::splittable).anyMatch(Fragmenter::needsOneProcess);
    }

    /**
     * A hash repartition whose input is a fragment itself (a partial aggregation over a scan):
     * each worker sends every peer the rows of the peer's keys, so the step above it (the final
     * aggregation) runs on the workers too.
     */
    private static boolean repartitionsBetweenWorkers(PlanNode node)
    {
        return node instanceof HashExchangeNode && distributable(node.children().get(0));
    }

    private static boolean readsSharedTablesOnly(PlanNode node)
    {
        if (node instanceof ScanNode scan && !scan.connector().readableOnEveryNode(scan.table())) {
            return false;
        }
        return node.children().stream().allMatch(Fragmenter::readsSharedTablesOnly);
    }

    /** The fragment's plan, one node per line, indented by depth. */
    static String fingerprint(PlanNode node)
    {
        StringBuilder text = new StringBuilder();
        render(node, 0, text);
        return text.toString();
    }

    private static void render(PlanNode node, int depth, StringBuilder text)
    {
        text.append("  ".repeat(depth)).append(node.describe()).append('\n');
        for (PlanNode child : node.children()) {
            render(child, depth + 1, text);
        }
    }
}
