package io.ontul.engine.sql.tree;

import java.util.List;

import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SameOperandTypeChecker;
import org.apache.calcite.sql.type.SqlTypeFamily;

/**
 * Trino's {@code date_diff('unit', a, b)}: the whole units from a to b, a BIGINT; a and b both
 * DATE or both TIMESTAMP. Calcite's grammar reads {@code DATE_DIFF} as BigQuery's
 * {@code DATE_DIFF(a, b, UNIT)}; Ontul's build patches that rule so that a call whose first
 * argument is a string literal becomes this function (engine/pom.xml, "date_diff").
 */
public final class DateDiffFunction
{
    public static final SqlFunction INSTANCE = new SqlFunction("DATE_DIFF", SqlKind.OTHER_FUNCTION, ReturnTypes.BIGINT_NULLABLE, null,
            OperandTypes.family(SqlTypeFamily.STRING, SqlTypeFamily.DATETIME, SqlTypeFamily.DATETIME)
                    .and(new SameOperandTypeChecker(3)
                    {
                        @Override
                        protected List<Integer> getOperandList(int operandCount)
                        {
                            // the two datetimes, not the unit
                            return List.of(1, 2);
                        }
                    }),
            SqlFunctionCategory.TIMEDATE);

    private DateDiffFunction() {}
}
