package io.ontul.engine.plan;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.type.SqlTypeFamily;

import com.google.common.collect.ImmutableList;

/**
 * Gives the literals of a VALUES the approximate type of their column where Calcite leaves them
 * exact: in {@code VALUES (0.5), (1e3)} the column is DOUBLE but holds a DECIMAL literal (a
 * BigDecimal) and a DOUBLE one (a Double), which Calcite's own metadata compares with each other
 * and fails on (ClassCastException) as soon as the VALUES is a subquery.
 */
final class ValuesLiterals
{
    private ValuesLiterals() {}

    /** The plan with every such literal of every VALUES, subqueries' included, a DOUBLE/REAL literal of its column's type. */
    static RelNode coerce(RelNode plan, RexBuilder rexBuilder)
    {
        return PlanNodes.rewrite(plan, node -> node instanceof LogicalValues values ? coerce(values, rexBuilder) : node);
    }

    private static RelNode coerce(LogicalValues values, RexBuilder rexBuilder)
    {
        List<RelDataType> types = values.getRowType().getFieldList().stream().map(field -> field.getType()).toList();
        boolean changed = false;
        List<ImmutableList<RexLiteral>> tuples = new ArrayList<>();
        for (List<RexLiteral> tuple : values.getTuples()) {
            ImmutableList.Builder<RexLiteral> literals = ImmutableList.builder();
            for (int i = 0; i < tuple.size(); i++) {
                RexLiteral literal = tuple.get(i);
                RelDataType type = types.get(i);
                if (SqlTypeFamily.APPROXIMATE_NUMERIC.contains(type) && literal.getValue() instanceof BigDecimal exact) {
                    literal = rexBuilder.makeApproxLiteral(exact, type);
                    changed = true;
                }
                literals.add(literal);
            }
            tuples.add(literals.build());
        }
        return changed ? LogicalValues.create(values.getCluster(), values.getRowType(), ImmutableList.copyOf(tuples)) : values;
    }
}
