package io.ontul.engine.plan;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Consumer;
import java.util.Set;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;

import io.ontul.engine.security.Securable;

/**
 * The tables a plan reads, found in the plan as converted from SQL, before any rewrite could drop
 * one (a join the optimizer proves empty still reads nothing the user may not see): every table
 * scan, in subqueries ({@code IN}, {@code EXISTS}, scalar) too. An INSERT's target is not read.
 * The scans of a view's plan are left out: reading a view reads the view, and the tables under
 * it are what the view's owner reads.
 */
final class TablesRead
{
    private TablesRead() {}

    static Set<Securable> of(RelNode plan)
    {
        return of(plan, Set.of());
    }

    /** @param viewScans the scans that are part of views' plans (by identity): what the views' owners read */
    static Set<Securable> of(RelNode plan, Set<RelNode> viewScans)
    {
        Set<Securable> tables = new LinkedHashSet<>();
        scans(plan, scan -> {
            List<String> name = scan.getTable().getQualifiedName();
            if (!viewScans.contains(scan) && name.size() >= 3) {
                tables.add(Securable.table(name.get(name.size() - 3), name.get(name.size() - 2), name.get(name.size() - 1)));
            }
        });
        return tables;
    }

    /** Every table scan of the plan, in subqueries too. */
    static void scans(RelNode plan, Consumer<TableScan> action)
    {
        new RelVisitor()
        {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent)
            {
                if (node instanceof TableScan scan) {
                    action.accept(scan);
                }
                node.accept(new RexShuttle()
                {
                    @Override
                    public org.apache.calcite.rex.RexNode visitSubQuery(RexSubQuery subQuery)
                    {
                        scans(subQuery.rel, action);
                        return super.visitSubQuery(subQuery);
                    }
                });
                super.visit(node, ordinal, parent);
            }
        }.go(plan);
    }
}
