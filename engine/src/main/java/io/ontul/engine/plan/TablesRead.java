package io.ontul.engine.plan;

import java.util.LinkedHashSet;
import java.util.List;
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
 */
final class TablesRead
{
    private TablesRead() {}

    static Set<Securable> of(RelNode plan)
    {
        Set<Securable> tables = new LinkedHashSet<>();
        collect(plan, tables);
        return tables;
    }

    private static void collect(RelNode plan, Set<Securable> tables)
    {
        new RelVisitor()
        {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent)
            {
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
                        collect(subQuery.rel, tables);
                        return super.visitSubQuery(subQuery);
                    }
                });
                super.visit(node, ordinal, parent);
            }
        }.go(plan);
    }
}
