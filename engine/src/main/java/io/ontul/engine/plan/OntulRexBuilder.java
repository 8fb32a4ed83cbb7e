package io.ontul.engine.plan;

import java.util.List;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;

import io.ontul.engine.query.PlanningDeadline;

/**
 * Keeps casts of literals whose folding in Calcite differs from the SQL users expect (Calcite
 * truncates {@code CAST(2.7 AS INTEGER)} to 2, renders {@code CAST(true AS VARCHAR)} as
 * {@code TRUE}, drops sub-second digits). Those casts stay as calls, and the engine's kernels
 * evaluate them once per query (constant hoisting) with PostgreSQL/Trino semantics. Every call
 * and literal it makes is a {@linkplain PlanningDeadline#check planning checkpoint}. A safe cast
 * (TRY_CAST) always stays a call, of a nullable type.
 */
public final class OntulRexBuilder
        extends RexBuilder
{
    public OntulRexBuilder(RelDataTypeFactory typeFactory)
    {
        super(typeFactory);
    }

    @Override
    public RexNode makeCall(SqlParserPos pos, RelDataType returnType, SqlOperator op, List<RexNode> exprs)
    {
        PlanningDeadline.check();
        return super.makeCall(pos, returnType, op, exprs);
    }

    @Override
    public RexNode makeCall(SqlParserPos pos, SqlOperator op, List<? extends RexNode> exprs)
    {
        PlanningDeadline.check();
        return super.makeCall(pos, op, exprs);
    }

    @Override
    protected RexLiteral makeLiteral(Comparable value, RelDataType type, SqlTypeName typeName)
    {
        PlanningDeadline.check();
        return super.makeLiteral(value, type, typeName);
    }

    @Override
    public RexNode makeCast(SqlParserPos pos, RelDataType type, RexNode exp, boolean matchNullability, boolean safe, RexLiteral format)
    {
        if (safe) {
            // TRY_CAST: NULL where the cast fails, so nullable whatever its operand; the engine evaluates it
            return makeAbstractCast(pos, typeFactory.createTypeWithNullability(type, true), exp, true, format);
        }
        if (exp instanceof RexLiteral literal && !literal.isNull() && keepAsCall(literal.getType(), type)) {
            RelDataType target = matchNullability ? typeFactory.createTypeWithNullability(type, exp.getType().isNullable()) : type;
            return makeAbstractCast(pos, target, exp, safe, format);
        }
        return super.makeCast(pos, type, exp, matchNullability, safe, format);
    }

    private static boolean keepAsCall(RelDataType from, RelDataType to)
    {
        SqlTypeName source = from.getSqlTypeName();
        SqlTypeName target = to.getSqlTypeName();
        boolean sourceText = source == SqlTypeName.CHAR || source == SqlTypeName.VARCHAR;
        boolean targetText = target == SqlTypeName.CHAR || target == SqlTypeName.VARCHAR;
        return switch (target) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> source == SqlTypeName.DECIMAL && from.getScale() > 0 || source == SqlTypeName.DOUBLE || source == SqlTypeName.REAL || sourceText;
            case DECIMAL -> sourceText || source == SqlTypeName.DOUBLE || (source == SqlTypeName.DECIMAL && from.getScale() > to.getScale());
            case CHAR, VARCHAR -> !sourceText && from.getSqlTypeName().getFamily() != SqlTypeFamily.INTERVAL_DAY_TIME
                    && from.getSqlTypeName().getFamily() != SqlTypeFamily.INTERVAL_YEAR_MONTH || (target == SqlTypeName.CHAR && sourceText && to.getPrecision() != from.getPrecision());
            case TIMESTAMP, TIME, DATE -> sourceText || source == SqlTypeName.TIMESTAMP;
            default -> targetText;
        };
    }
}
