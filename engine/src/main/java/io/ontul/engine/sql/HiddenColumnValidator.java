package io.ontul.engine.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.validate.SqlValidatorCatalogReader;
import org.apache.calcite.sql.validate.SqlValidatorImpl;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * Calcite's validator, except that {@code SELECT *} leaves out hidden columns (Kafka's
 * {@code _offset}, say: {@link io.ontul.spi.TableHandle#HIDDEN_COLUMN}), while naming them still
 * selects them.
 * <p>
 * Calcite skips a column in star expansion when its table reports it "rolled up", and refuses a
 * rolled-up column named outside an aggregate. So {@link ConnectorTable#isRolledUp} answers yes
 * for a hidden column only while this validator expands a select list, which is where the star
 * is expanded; the checks that refuse rolled-up columns run after it, and a nested SELECT (a
 * subquery in the select list) resets the flag for its own checks.
 * <p>
 * Not hidden (known limits): the columns of a qualified star ({@code t.*}), and every column of a
 * star over a USING or NATURAL join (Calcite lines those up by position); a NATURAL join also
 * matches on hidden columns of the same name.
 */
public final class HiddenColumnValidator
        extends SqlValidatorImpl
{
    private static final ThreadLocal<Boolean> EXPANDING_SELECT_LIST = ThreadLocal.withInitial(() -> false);

    public HiddenColumnValidator(SqlOperatorTable operatorTable, SqlValidatorCatalogReader catalogReader, RelDataTypeFactory typeFactory, Config config)
    {
        super(operatorTable, catalogReader, typeFactory, config);
    }

    private static boolean hasUsingOrNaturalJoin(SqlNode from)
    {
        if (from instanceof SqlJoin join) {
            return join.isNatural() || join.getConditionType() == JoinConditionType.USING
                    || hasUsingOrNaturalJoin(join.getLeft()) || hasUsingOrNaturalJoin(join.getRight());
        }
        return false;
    }

    /** Whether the current thread is expanding a select list, where hidden columns stay out of {@code *}. */
    static boolean expandingSelectList()
    {
        return EXPANDING_SELECT_LIST.get();
    }

    /** Every expression typed is a {@linkplain io.ontul.engine.plan.PlanningDeadline#check planning checkpoint}. */
    @Override
    public RelDataType deriveType(SqlValidatorScope scope, SqlNode expression)
    {
        io.ontul.engine.plan.PlanningDeadline.check();
        return super.deriveType(scope, expression);
    }

    @Override
    protected void validateSelect(SqlSelect select, RelDataType targetRowType)
    {
        boolean outer = EXPANDING_SELECT_LIST.get();
        EXPANDING_SELECT_LIST.set(false);
        try {
            super.validateSelect(select, targetRowType);
        }
        finally {
            EXPANDING_SELECT_LIST.set(outer);
        }
    }

    @Override
    protected RelDataType validateSelectList(SqlNodeList selectItems, SqlSelect select, RelDataType targetRowType)
    {
        boolean outer = EXPANDING_SELECT_LIST.get();
        // Calcite lines up the columns of a USING or NATURAL join by position while it expands the
        // star, and a left-out column breaks that: such a star keeps the hidden columns
        EXPANDING_SELECT_LIST.set(!hasUsingOrNaturalJoin(select.getFrom()));
        try {
            return super.validateSelectList(selectItems, select, targetRowType);
        }
        finally {
            EXPANDING_SELECT_LIST.set(outer);
        }
    }
}
