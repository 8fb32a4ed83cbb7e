package io.ontul.engine.plan;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;

import io.ontul.engine.operator.Operator;
import io.ontul.engine.operator.window.SessionWindowFunction;
import io.ontul.engine.operator.window.TimeWindowFunction;
import io.ontul.engine.operator.window.TimeWindowOperator;
import io.ontul.engine.type.ArrowTypes;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * A TUMBLE or HOP window table function ({@code FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts),
 * INTERVAL '10' SECOND))}): its input's columns plus {@code window_start} and {@code window_end}.
 */
public final class WindowTableFunctionNode
        extends PlanNode
{
    private final TimeWindowFunction function;

    public WindowTableFunctionNode(RelDataType rowType, PlanNode child, TimeWindowFunction function)
    {
        super(rowType, List.of(child));
        this.function = requireNonNull(function, "function is null");
    }

    /**
     * Plans a window table function over its planned input: TUMBLE and HOP as this node, SESSION
     * as a {@link SessionWindowNode} over the gathered input; other table functions are
     * NOT_SUPPORTED.
     */
    static PlanNode plan(TableFunctionScan scan, PlanNode input)
    {
        if (!(scan.getCall() instanceof RexCall call)) {
            throw unsupported(scan.getCall().toString());
        }
        String kind = call.getOperator().getName().toUpperCase(Locale.ROOT);
        if (!kind.equals("TUMBLE") && !kind.equals("HOP") && !kind.equals("SESSION")) {
            throw unsupported(kind);
        }
        int timeColumn = -1;
        List<Integer> keyColumns = new ArrayList<>();
        List<Long> intervals = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
            if (operand instanceof RexCall descriptor && descriptor.getKind() == SqlKind.DESCRIPTOR) {
                if (timeColumn < 0) {
                    timeColumn = ((RexInputRef) descriptor.getOperands().get(0)).getIndex();
                }
                else {
                    descriptor.getOperands().forEach(key -> keyColumns.add(((RexInputRef) key).getIndex()));
                }
            }
            else if (operand instanceof RexLiteral literal && literal.getType().getFamily() == SqlTypeFamily.INTERVAL_DAY_TIME) {
                intervals.add(literal.getValueAs(BigDecimal.class).longValueExact());
            }
            else if (operand instanceof RexLiteral literal && literal.getType().getFamily() == SqlTypeFamily.INTERVAL_YEAR_MONTH) {
                throw new OntulException(ErrorCode.NOT_SUPPORTED, kind + " windows of months or years are not supported: use a day-time interval such as INTERVAL '1' DAY");
            }
        }
        if (timeColumn < 0 || intervals.isEmpty() || scan.getInputs().size() != 1) {
            throw unsupported(call.toString());
        }
        ArrowType.Timestamp timeType = (ArrowType.Timestamp) ArrowTypes.toField("time", scan.getInput(0).getRowType().getFieldList().get(timeColumn).getType()).getType();
        long unitsPerMilli = timeType.getUnit() == TimeUnit.MICROSECOND ? 1000 : 1;
        long first = intervals.get(0) * unitsPerMilli;
        if (kind.equals("SESSION")) {
            if (first <= 0) {
                throw new OntulException(ErrorCode.INVALID_ARGUMENT, "SESSION window gap must be a positive interval");
            }
            PlanNode gathered = input.splittable() ? new GatherNode(input) : input;
            return new SessionWindowNode(scan.getRowType(), gathered, new SessionWindowFunction(timeColumn, keyColumns.stream().mapToInt(Integer::intValue).toArray(), first));
        }
        long offset = 0;
        long size;
        long slide;
        if (kind.equals("TUMBLE")) {
            size = first;
            slide = first;
            offset = intervals.size() > 1 ? intervals.get(1) * unitsPerMilli : 0;
        }
        else {
            if (intervals.size() < 2) {
                throw unsupported(call.toString());
            }
            slide = first;
            size = intervals.get(1) * unitsPerMilli;
            offset = intervals.size() > 2 ? intervals.get(2) * unitsPerMilli : 0;
        }
        if (size <= 0 || slide <= 0) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, kind + " window size and slide must be positive intervals");
        }
        if (slide > size) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "HOP window slide (the first interval) must not be longer than its size (the second interval)");
        }
        return new WindowTableFunctionNode(scan.getRowType(), input, new TimeWindowFunction(kind, timeColumn, size, slide, offset));
    }

    private static OntulException unsupported(String what)
    {
        return new OntulException(ErrorCode.NOT_SUPPORTED, "Table function not supported: " + what + " (the window table functions TUMBLE, HOP and SESSION are)");
    }

    public TimeWindowFunction function()
    {
        return function;
    }

    /** The same window function over another input of the same row type (a streaming job's polled batches). */
    public WindowTableFunctionNode withChild(PlanNode child)
    {
        return new WindowTableFunctionNode(rowType(), child, function);
    }

    @Override
    public boolean splittable()
    {
        return children().get(0).splittable();
    }

    @Override
    protected Operator create(TaskContext task)
    {
        return new TimeWindowOperator(task.query(), children().get(0).open(task), function, schema());
    }

    @Override
    public String describe()
    {
        String column = children().get(0).rowType().getFieldList().get(function.timeColumn()).getName();
        return function.kind() + " time=" + column + " size=" + function.size() + (function.slide() != function.size() ? " slide=" + function.slide() : "")
                + (function.offset() != 0 ? " offset=" + function.offset() : "");
    }
}
