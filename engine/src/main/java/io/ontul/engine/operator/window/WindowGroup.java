package io.ontul.engine.operator.window;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.SqlKind;

import io.ontul.engine.operator.sort.SortKey;

/**
 * One window specification (PARTITION BY, ORDER BY, frame) and the window functions computed
 * over it. Each function produces one output column, in order.
 */
public record WindowGroup(int[] partitionColumns, List<SortKey> orderKeys, boolean rows, Bound lower, Bound upper, List<Function> functions)
{
    public WindowGroup
    {
        requireNonNull(partitionColumns, "partitionColumns is null");
        orderKeys = List.copyOf(orderKeys);
        requireNonNull(lower, "lower is null");
        requireNonNull(upper, "upper is null");
        functions = List.copyOf(functions);
    }

    public enum BoundType
    {
        UNBOUNDED_PRECEDING, PRECEDING, CURRENT_ROW, FOLLOWING, UNBOUNDED_FOLLOWING
    }

    /** A frame bound; {@code offset} is set for PRECEDING and FOLLOWING. */
    public record Bound(BoundType type, RexLiteral offset)
    {
        public Bound
        {
            requireNonNull(type, "type is null");
        }

        @Override
        public String toString()
        {
            return offset == null ? type.toString() : offset + " " + type;
        }
    }

    /** A function argument: an input column, or a constant when {@code column} is -1. */
    public record Argument(int column, RexLiteral constant)
    {
        public boolean isConstant()
        {
            return column < 0;
        }

        @Override
        public String toString()
        {
            return isConstant() ? String.valueOf(constant) : "$" + column;
        }
    }

    public record Function(SqlKind kind, String name, List<Argument> arguments)
    {
        public Function
        {
            requireNonNull(kind, "kind is null");
            requireNonNull(name, "name is null");
            arguments = List.copyOf(arguments);
        }

        @Override
        public String toString()
        {
            return name + arguments;
        }
    }

    @Override
    public String toString()
    {
        return "partition=" + java.util.Arrays.toString(partitionColumns) + " order=" + orderKeys + " " + (rows ? "ROWS" : "RANGE") + " " + lower + ".." + upper + " " + functions;
    }
}
