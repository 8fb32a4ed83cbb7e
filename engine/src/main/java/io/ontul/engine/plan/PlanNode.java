package io.ontul.engine.plan;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.type.RelDataType;

import io.ontul.engine.operator.MeasuredOperator;
import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.OperatorStats;
import io.ontul.engine.type.ArrowTypes;

/**
 * A node of the physical plan: knows its output row type and how to open an {@link Operator}
 * for one task. Nodes are immutable except for their statistics, and may be opened several
 * times (once per parallel instance).
 * <p>
 * A node is <em>splittable</em> when its instances can each process a disjoint part of the
 * input (a scan and the streaming operators above it). A node that is not splittable produces
 * its whole result in instance 0 and nothing in the others.
 */
public abstract class PlanNode
{
    private final RelDataType rowType;
    private final Schema schema;
    private final List<PlanNode> children;
    private final OperatorStats stats = new OperatorStats();

    protected PlanNode(RelDataType rowType, List<PlanNode> children)
    {
        this.rowType = requireNonNull(rowType, "rowType is null");
        this.schema = ArrowTypes.toSchema(rowType);
        this.children = List.copyOf(children);
    }

    public RelDataType rowType()
    {
        return rowType;
    }

    public Schema schema()
    {
        return schema;
    }

    public List<PlanNode> children()
    {
        return children;
    }

    public OperatorStats stats()
    {
        return stats;
    }

    public abstract boolean splittable();

    /** One line for EXPLAIN: the operator and its arguments. */
    public abstract String describe();

    private static final java.util.regex.Pattern INPUT_REFERENCE = java.util.regex.Pattern.compile("\\$(\\d+)");

    /** Replaces {@code $n} input references in expression text with the input's column names. */
    protected static String withNames(String text, RelDataType input)
    {
        java.util.regex.Matcher matcher = INPUT_REFERENCE.matcher(text);
        StringBuilder result = new StringBuilder();
        while (matcher.find()) {
            int index = Integer.parseInt(matcher.group(1));
            String name = index < input.getFieldCount() ? input.getFieldList().get(index).getName() : matcher.group();
            matcher.appendReplacement(result, java.util.regex.Matcher.quoteReplacement(name));
        }
        matcher.appendTail(result);
        return result.toString();
    }

    /** True when the node runs on the vectorized path (EXPLAIN marks others). */
    public boolean vectorized()
    {
        return true;
    }

    protected abstract Operator create(TaskContext task);

    public final Operator open(TaskContext task)
    {
        if (!splittable() && task.instance() > 0) {
            return new EmptyOperator();
        }
        String description = describe();
        int end = 0;
        while (end < description.length() && (Character.isLetterOrDigit(description.charAt(end)) || description.charAt(end) == '_')) {
            end++;
        }
        return new MeasuredOperator(create(task), stats, end == 0 ? getClass().getSimpleName() : description.substring(0, end), task.query());
    }

    private static final class EmptyOperator
            implements Operator
    {
        @Override
        public VectorSchemaRoot next()
        {
            return null;
        }

        @Override
        public void close() {}
    }
}
