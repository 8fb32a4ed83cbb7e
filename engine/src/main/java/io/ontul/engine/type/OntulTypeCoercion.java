package io.ontul.engine.type;

import java.util.List;

import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
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
        if (addsDaysToDate(binding)) {
            return true;
        }
        return super.binaryArithmeticCoercion(binding);
    }

    /**
     * {@code date + n}, {@code n + date} and {@code date - n} with an integer {@code n} count
     * days, as in PostgreSQL and DuckDB (TPC-DS writes {@code d_date + 5}): the integer becomes
     * {@code n * INTERVAL '1' DAY}, so the rest of the engine sees standard date arithmetic.
     */
    private boolean addsDaysToDate(SqlCallBinding binding)
    {
        SqlKind kind = binding.getOperator().getKind();
        if (binding.getOperandCount() != 2 || kind != SqlKind.PLUS && kind != SqlKind.MINUS) {
            return false;
        }
        RelDataType left = binding.getOperandType(0);
        RelDataType right = binding.getOperandType(1);
        int integerOperand;
        if (left.getSqlTypeName() == SqlTypeName.DATE && SqlTypeUtil.isIntType(right)) {
            integerOperand = 1;
        }
        else if (kind == SqlKind.PLUS && SqlTypeUtil.isIntType(left) && right.getSqlTypeName() == SqlTypeName.DATE) {
            integerOperand = 0;
        }
        else {
            return false;
        }
        SqlNode operand = binding.operand(integerOperand);
        SqlParserPos position = operand.getParserPosition();
        SqlNode interval = SqlStdOperatorTable.MULTIPLY.createCall(position, operand,
                SqlLiteral.createInterval(1, "1", new SqlIntervalQualifier(TimeUnit.DAY, null, position), position));
        RelDataType intervalType = validator.deriveType(binding.getScope(), interval);
        updateInferredType(interval, intervalType);
        binding.getCall().setOperand(integerOperand, interval);
        return true;
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
