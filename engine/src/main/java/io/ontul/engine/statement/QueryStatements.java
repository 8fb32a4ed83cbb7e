package io.ontul.engine.statement;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;

import io.ontul.engine.api.QueryResult;
import io.ontul.spi.DataSize;
import io.ontul.engine.operator.exchange.RemoteSource;
import io.ontul.engine.plan.GatherNode;
import io.ontul.engine.plan.HashExchangeNode;
import io.ontul.engine.plan.PlanNode;
import io.ontul.engine.plan.SharedSubplanNode;
import io.ontul.spi.cluster.OperatorFigures;
import io.ontul.engine.sql.tree.SqlExplainStatement;

/** Queries, and EXPLAIN [ANALYZE] of a query or an INSERT's query. */
final class QueryStatements
{
    QueryResult query(SqlNode query, StatementContext context)
    {
        return context.runQuery(query);
    }

    QueryResult explain(SqlExplainStatement explain, StatementContext context)
    {
        return explain(explain.statement(), explain.isAnalyze(), context);
    }

    QueryResult explain(SqlExplain explain, StatementContext context)
    {
        return explain(explain.getExplicandum(), false, context);
    }

    private static QueryResult explain(SqlNode statement, boolean analyze, StatementContext context)
    {
        SqlNode query = statement instanceof SqlInsert insert ? insert.getSource() : statement;
        PlannedQuery planned = context.plan(query);
        if (analyze) {
            context.runToEnd(planned);
        }
        List<List<String>> rows = new ArrayList<>();
        render(planned.root(), 0, analyze, rows, analyze ? workerFigures(planned.root()) : Map.of(), java.util.Collections.newSetFromMap(new IdentityHashMap<>()));
        return context.text(List.of("plan"), rows);
    }

    /**
     * The figures the workers report for the operators of the plan's fragments, by operator: each
     * worker's list is in the fragment's plan order, as the fragment is cut the same way there.
     */
    private static Map<PlanNode, Map<String, OperatorFigures>> workerFigures(PlanNode root)
    {
        Map<PlanNode, Map<String, OperatorFigures>> figures = new IdentityHashMap<>();
        collectWorkerFigures(root, figures);
        return figures;
    }

    private static void collectWorkerFigures(PlanNode node, Map<PlanNode, Map<String, OperatorFigures>> figures)
    {
        Optional<RemoteSource> remote = node instanceof GatherNode gather ? gather.remote()
                : node instanceof HashExchangeNode exchange ? exchange.remote() : Optional.empty();
        if (remote.isPresent()) {
            List<PlanNode> operators = new ArrayList<>();
            preOrder(node.children().get(0), operators);
            remote.get().statistics().forEach((worker, list) -> {
                for (int index = 0; index < Math.min(list.size(), operators.size()); index++) {
                    figures.computeIfAbsent(operators.get(index), key -> new LinkedHashMap<>()).put(worker, list.get(index));
                }
            });
            return;
        }
        for (PlanNode child : node.children()) {
            collectWorkerFigures(child, figures);
        }
    }

    private static void preOrder(PlanNode node, List<PlanNode> nodes)
    {
        nodes.add(node);
        for (PlanNode child : node.children()) {
            preOrder(child, nodes);
        }
    }

    /** Renders {@code node}'s subtree; a shared subplan's inside once, at its first parent ({@code sharedShown}). */
    private static void render(PlanNode node, int depth, boolean analyze, List<List<String>> rows, Map<PlanNode, Map<String, OperatorFigures>> workerFigures,
            java.util.Set<PlanNode> sharedShown)
    {
        StringBuilder line = new StringBuilder("  ".repeat(depth)).append("- ").append(node.describe());
        if (node instanceof SharedSubplanNode && !sharedShown.add(node)) {
            rows.add(List.of(line.append(" [shown above]").toString()));
            return;
        }
        line.append(node.vectorized() ? " [vectorized]" : " [row-at-a-time fallback]");
        Map<String, OperatorFigures> onWorkers = workerFigures.get(node);
        if (analyze && onWorkers != null) {
            // it ran on the workers: their figures, summed, then each
            long rowCount = 0;
            long batches = 0;
            long nanos = 0;
            long memory = 0;
            for (OperatorFigures figures : onWorkers.values()) {
                rowCount += figures.rows();
                batches += figures.batches();
                nanos += figures.nanos();
                memory = Math.max(memory, figures.memoryBytes());
            }
            line.append(String.format(Locale.ROOT, " (on %d workers: rows=%d batches=%d time=%.1fms memory=%s;", onWorkers.size(), rowCount, batches, nanos / 1e6, DataSize.format(memory)));
            onWorkers.forEach((worker, figures) -> line.append(String.format(Locale.ROOT, " %s: rows=%d time=%.1fms memory=%s%s;", worker, figures.rows(), figures.nanos() / 1e6,
                    DataSize.format(figures.memoryBytes()), figures.spilledBytes() > 0 ? " spilled=" + DataSize.format(figures.spilledBytes()) : "")));
            line.setLength(line.length() - 1);
            line.append(')');
        }
        else if (analyze) {
            line.append(String.format(Locale.ROOT, " (rows=%d batches=%d time=%.1fms memory=%s)",
                    node.stats().rows(), node.stats().batches(), node.stats().nanos() / 1e6, DataSize.format(node.stats().memoryBytes())));
            if (node.stats().spilledRuns() > 0) {
                line.setLength(line.length() - 1);
                line.append(String.format(Locale.ROOT, " spilled=%s in %d runs",
                        DataSize.format(node.stats().spilledBytes()), node.stats().spilledRuns()));
                if (node.stats().repartitioned() > 0) {
                    line.append(" repartitioned=").append(node.stats().repartitioned());
                }
                if (node.stats().chunked() > 0) {
                    line.append(" chunked=").append(node.stats().chunked());
                }
                if (node.stats().resident() > 0) {
                    line.append(" resident=").append(node.stats().resident());
                }
                if (node.stats().shared() > 0) {
                    line.append(" shared=").append(node.stats().shared());
                }
                line.append(')');
            }
        }
        rows.add(List.of(line.toString()));
        for (PlanNode child : node.children()) {
            render(child, depth + 1, analyze, rows, workerFigures, sharedShown);
        }
    }
}
