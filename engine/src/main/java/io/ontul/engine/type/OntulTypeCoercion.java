package io.ontul.engine.type;

import java.util.List;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

/**
 * Calcite's implicit coercion, except that aggregate functions and arithmetic never coerce text
 * to numbers: {@code SUM(name)}, {@code + name} and {@code name * 2} are type errors at
 * validation, with their position (as in PostgreSQL and Trino), not casts that fail on the first
 * row. A string literal still counts as the number it spells ({@code '2' * 3}), as PostgreSQL's
 * untyped literals do.
 */
public final class OntulTypeCoercion
        extends TypeCoercionImpl
{
    public OntulTypeCoercion(RelDataTypeFactory typeFactory, SqlValidator validator)
    {
        super(typeFactory, validator);
    }

    @Override
    public boolean builtinFunctionCoercion(SqlCallBinding binding, List<RelDataType> operandTypes, List<SqlTypeFamily> expectedFamilies)
    {
        if (binding.getOperator() instanceof SqlAggFunction || isArithmetic(binding) && hasTextOperand(binding)) {
            return false;
        }
        return super.builtinFunctionCoercion(binding, operandTypes, expectedFamilies);
    }

    @Override
    public boolean binaryArithmeticCoercion(SqlCallBinding binding)
    {
        if (hasTextOperand(binding)) {
            return false;
        }
        return super.binaryArithmeticCoercion(binding);
    }

    private static boolean isArithmetic(SqlCallBinding binding)
    {
        return switch (binding.getOperator().getKind()) {
            case PLUS_PREFIX, MINUS_PREFIX, PLUS, MINUS, TIMES, DIVIDE, MOD -> true;
            default -> false;
        };
    }

    /** An operand of a character type that is not a literal (a column, an expression). */
    private static boolean hasTextOperand(SqlCallBinding binding)
    {
        for (int i = 0; i < binding.getOperandCount(); i++) {
            if (SqlTypeUtil.isCharacter(binding.getOperandType(i)) && !(binding.operand(i) instanceof SqlLiteral)) {
                return true;
            }
        }
        return false;
    }
}
