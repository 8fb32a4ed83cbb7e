package io.ontul.engine.type;

import java.util.List;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

/**
 * Calcite's implicit coercion, except that aggregate functions never coerce text to numbers:
 * {@code SUM(name)} is a type error at validation (as in PostgreSQL and Trino), not a cast that
 * fails on the first row.
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
        if (binding.getOperator() instanceof SqlAggFunction) {
            return false;
        }
        return super.builtinFunctionCoercion(binding, operandTypes, expectedFamilies);
    }
}
