package io.ontul.engine.streaming;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

import io.ontul.engine.plan.FilterProjectNode;
import io.ontul.engine.plan.ScanNode;
import io.ontul.spi.TableHandle;
import io.ontul.spi.stream.StreamSinkProvider;
import io.ontul.spi.stream.StreamSourceProvider;

/**
 * A stateless job planned by the query planner: the scan of the source table (its columns are
 * what the source reads), the filter/project nodes above it, top first (possibly none), and the
 * sink table.
 */
record StreamingJobPlan(
        ScanNode scan,
        List<FilterProjectNode> filterProjects,
        StreamSourceProvider source,
        TableHandle sinkTable,
        StreamSinkProvider sink)
{
    StreamingJobPlan
    {
        requireNonNull(scan, "scan is null");
        filterProjects = List.copyOf(filterProjects);
        requireNonNull(source, "source is null");
        requireNonNull(sinkTable, "sinkTable is null");
        requireNonNull(sink, "sink is null");
    }

    /** One line per node, top first, as EXPLAIN writes them. */
    List<String> describe()
    {
        List<String> lines = new ArrayList<>();
        lines.add("- Sink " + sinkTable.qualifiedName() + " (two-phase commit per checkpoint)");
        int depth = 1;
        for (FilterProjectNode node : filterProjects) {
            lines.add("  ".repeat(depth++) + "- " + node.describe() + " [vectorized]");
        }
        lines.add("  ".repeat(depth) + "- Stream " + scan.table().qualifiedName() + " columns=" + scan.scan().columns());
        return lines;
    }
}
