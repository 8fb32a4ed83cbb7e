package io.ontul.engine.plan;

import java.math.BigDecimal;
import java.math.RoundingMode;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;

import io.ontul.engine.expression.Functions;

/**
 * Computes arithmetic on constants once, while planning: {@code 1200 + 11} and
 * {@code DATE '1995-09-01' + INTERVAL '1' MONTH} (the idioms of TPC-H and TPC-DS filters) become
 * literals. A filter on a column against a literal is then pushed into the scan, and the
 * column statistics can estimate it ({@link ColumnStatisticsEstimator}), where an expression
 * left both guessing. Only exact numbers and DATE plus or minus an interval are folded, with the
 * functions the generated code would call, so the value is the one execution would compute; a
 * result that does not fit its type is left for execution to report.
 */
public final class ConstantFolding
{
    private ConstantFolding() {}

    public static RelNode fold(RelNode rel)
    {
        RexShuttle folder = new Folder(rel.getCluster().getRexBuilder());
        return rel.accept(new RelHomogeneousShuttle()
        {
            @Override
            public RelNode visit(RelNode other)
            {
                return super.visit(other).accept(folder);
            }
        });
    }

    private static final class Folder
            extends RexShuttle
    {
        private final RexBuilder rexBuilder;

        Folder(RexBuilder rexBuilder)
        {
            this.rexBuilder = rexBuilder;
        }

        @Override
        public RexNode visitCall(RexCall call)
        {
            RexNode visited = super.visitCall(call);
            if (!(visited instanceof RexCall folded) || folded.getOperands().size() != 2
                    || !(folded.getOperands().get(0) instanceof RexLiteral left) || !(folded.getOperands().get(1) instanceof RexLiteral right)
                    || left.isNull() || right.isNull()) {
                return visited;
            }
            SqlKind kind = folded.getKind();
            if (kind != SqlKind.PLUS && kind != SqlKind.MINUS && kind != SqlKind.TIMES) {
                return visited;
            }
            RexNode literal = exactNumber(kind, left, right, folded.getType());
            if (literal == null) {
                literal = dateAndInterval(kind, left, right, folded.getType());
            }
            return literal == null ? visited : literal;
        }

        private RexNode exactNumber(SqlKind kind, RexLiteral left, RexLiteral right, RelDataType type)
        {
            if (!exact(left.getType()) || !exact(right.getType()) || !exact(type)) {
                return null;
            }
            BigDecimal a = left.getValueAs(BigDecimal.class);
            BigDecimal b = right.getValueAs(BigDecimal.class);
            if (a == null || b == null) {
                return null;
            }
            BigDecimal result = switch (kind) {
                case PLUS -> a.add(b);
                case MINUS -> a.subtract(b);
                default -> a.multiply(b);
            };
            int scale = type.getSqlTypeName() == SqlTypeName.DECIMAL ? type.getScale() : 0;
            try {
                result = result.setScale(scale, RoundingMode.UNNECESSARY);
            }
            catch (ArithmeticException e) {
                return null;
            }
            if (!fits(result, type)) {
                return null;
            }
            return rexBuilder.makeExactLiteral(result, type);
        }

        private RexNode dateAndInterval(SqlKind kind, RexLiteral left, RexLiteral right, RelDataType type)
        {
            if (type.getSqlTypeName() != SqlTypeName.DATE || left.getType().getSqlTypeName() != SqlTypeName.DATE
                    || right.getType().getSqlTypeName().getFamily() == null || kind == SqlKind.TIMES) {
                return null;
            }
            SqlTypeFamily family = right.getType().getSqlTypeName().getFamily();
            if (family != SqlTypeFamily.INTERVAL_YEAR_MONTH && family != SqlTypeFamily.INTERVAL_DAY_TIME) {
                return null;
            }
            DateString date = left.getValueAs(DateString.class);
            BigDecimal amount = right.getValueAs(BigDecimal.class);
            if (date == null || amount == null) {
                return null;
            }
            long value = kind == SqlKind.MINUS ? -amount.longValueExact() : amount.longValueExact();
            int days;
            try {
                days = family == SqlTypeFamily.INTERVAL_YEAR_MONTH
                        ? Functions.addMonthsToDate(date.getDaysSinceEpoch(), value)
                        : Functions.addMillisToDate(date.getDaysSinceEpoch(), value);
            }
            catch (ArithmeticException | java.time.DateTimeException e) {
                return null;
            }
            return rexBuilder.makeDateLiteral(DateString.fromDaysSinceEpoch(days));
        }

        private static boolean exact(RelDataType type)
        {
            return switch (type.getSqlTypeName()) {
                case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL -> true;
                default -> false;
            };
        }

        private static boolean fits(BigDecimal value, RelDataType type)
        {
            return switch (type.getSqlTypeName()) {
                case TINYINT -> value.compareTo(BigDecimal.valueOf(Byte.MIN_VALUE)) >= 0 && value.compareTo(BigDecimal.valueOf(Byte.MAX_VALUE)) <= 0;
                case SMALLINT -> value.compareTo(BigDecimal.valueOf(Short.MIN_VALUE)) >= 0 && value.compareTo(BigDecimal.valueOf(Short.MAX_VALUE)) <= 0;
                case INTEGER -> value.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) >= 0 && value.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0;
                case BIGINT -> value.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0 && value.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0;
                default -> value.precision() - value.scale() <= type.getPrecision() - type.getScale();
            };
        }
    }
}
