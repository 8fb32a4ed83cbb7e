package io.ontul.engine.statement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;

import io.ontul.engine.api.QueryResult;
import io.ontul.spi.DataSize;
import io.ontul.engine.plan.PlanNode;
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
        render(planned.root(), 0, analyze, rows);
        return context.text(List.of("plan"), rows);
    }

    private static void render(PlanNode node, int depth, boolean analyze, List<List<String>> rows)
    {
        StringBuilder line = new StringBuilder("  ".repeat(depth)).append("- ").append(node.describe());
        line.append(node.vectorized() ? " [vectorized]" : " [row-at-a-time fallback]");
        if (analyze) {
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
            render(child, depth + 1, analyze, rows);
        }
    }
}
