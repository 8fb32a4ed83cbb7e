package io.ontul.engine.plan;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
 * A view's plan counts as reading the view, not the tables under it: those its owner reads.
 */
final class TablesRead
{
    private TablesRead() {}

    static Set<Securable> of(RelNode plan)
    {
        return of(plan, Map.of());
    }

    /** @param views the plans of views (by identity) to the view each stands for */
    static Set<Securable> of(RelNode plan, Map<RelNode, Securable> views)
    {
        Set<Securable> tables = new LinkedHashSet<>();
        collect(plan, views, tables);
        return tables;
    }

    private static void collect(RelNode plan, Map<RelNode, Securable> views, Set<Securable> tables)
    {
        new RelVisitor()
        {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent)
            {
                Securable view = views.get(node);
                if (view != null) {
                    tables.add(view);
                    return;
                }
                if (node instanceof TableScan scan) {
                    List<String> name = scan.getTable().getQualifiedName();
                    if (name.size() >= 3) {
                        tables.add(Securable.table(name.get(name.size() - 3), name.get(name.size() - 2), name.get(name.size() - 1)));
                    }
                }
                node.accept(new RexShuttle()
                {
                    @Override
                    public org.apache.calcite.rex.RexNode visitSubQuery(RexSubQuery subQuery)
                    {
                        collect(subQuery.rel, views, tables);
                        return super.visitSubQuery(subQuery);
                    }
                });
                super.visit(node, ordinal, parent);
            }
        }.go(plan);
    }
}
