package io.ontul.engine.plan;

import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.rel.type.RelDataType;

import io.ontul.engine.query.QueryContext;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.scan.ScanOperator;
import io.ontul.engine.system.QueryAwareConnector;
import io.ontul.spi.Connector;
import io.ontul.spi.ScanSpec;
import io.ontul.spi.Split;
import io.ontul.spi.TableHandle;

/** Scans a connector table: projected columns and pushed-down predicate hints. */
public final class ScanNode
        extends PlanNode
{
    private final Connector connector;
    private final TableHandle table;
    private final ScanSpec scan;
    private List<Split> splits;

    public ScanNode(RelDataType rowType, Connector connector, TableHandle table, ScanSpec scan)
    {
        super(rowType, List.of());
        this.connector = connector;
        this.table = table;
        this.scan = scan;
    }

    public Connector connector()
    {
        return connector;
    }

    public TableHandle table()
    {
        return table;
    }

    public ScanSpec scan()
    {
        return scan;
    }

    @Override
    public boolean splittable()
    {
        return true;
    }

    /** The table's splits, enumerated once: as many per instance as a local scan has, on every node that runs one the same list. */
    private synchronized List<Split> splits(QueryContext query, int instances)
    {
        if (splits == null) {
            int desiredSplits = Math.max(query.parallelism(), instances) * 4;
            splits = List.copyOf(connector instanceof QueryAwareConnector queryAware
                    ? queryAware.splits(table, scan, desiredSplits, query)
                    : connector.splits(table, scan, desiredSplits));
        }
        return splits;
    }

    @Override
    protected Operator create(TaskContext task)
    {
        List<Split> all = splits(task.query(), task.instances());
        List<Split> mine = new ArrayList<>();
        for (int i = task.instance(); i < all.size(); i += task.instances()) {
            mine.add(all.get(i));
        }
        ScanSpec sized = scan.withMaxBatchRows(ScanOperator.maxBatchRows(task.query().memoryLimit(), schema()));
        return new ScanOperator(task.query(), connector, sized, mine);
    }

    @Override
    public String describe()
    {
        return "Scan " + table.qualifiedName() + " columns=" + scan.columns()
                + (scan.predicates().isEmpty() ? "" : " predicates=" + scan.predicates())
                + (scan.disjunctions().isEmpty() ? "" : " disjunctions=" + scan.disjunctions())
                + (scan.limit().isEmpty() ? "" : " limit=" + scan.limit().getAsLong())
                + scan.aggregation().map(aggregation -> " aggregation=[" + aggregation + "]").orElse("");
    }
}
