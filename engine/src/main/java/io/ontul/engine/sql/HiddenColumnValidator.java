package io.ontul.engine.sql;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlCase;
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

    private final java.util.Map<Integer, RelDataType> markerTypes = new java.util.HashMap<>();

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

    /** Every expression typed is a {@linkplain io.ontul.engine.query.PlanningDeadline#check planning checkpoint}. */
    @Override
    public RelDataType deriveType(SqlValidatorScope scope, SqlNode expression)
    {
        io.ontul.engine.query.PlanningDeadline.check();
        return super.deriveType(scope, expression);
    }

    /**
     * Types {@code ?} markers where Calcite alone cannot: it rewrites {@code COALESCE(?, x)} into
     * {@code CASE WHEN ? IS NOT NULL THEN CAST_NOT_NULL(?) ELSE x END}, with the marker copied,
     * where the condition would guess VARCHAR and the cast guesses nothing. Here the results of such a
     * CASE are typed before its conditions, a cast to NOT NULL passes its type to its operand, and a
     * marker keeps the type it got first wherever it appears again (so {@link #markerTypes} is
     * the statement's parameter types, by marker index).
     */
    @Override
    protected void inferUnknownTypes(RelDataType inferredType, SqlValidatorScope scope, SqlNode node)
    {
        if (node instanceof SqlDynamicParam marker) {
            RelDataType known = markerTypes.get(marker.getIndex());
            RelDataType type = known != null ? known : inferredType;
            super.inferUnknownTypes(type, scope, node);
            if (known == null) {
                markerTypes.put(marker.getIndex(), getValidatedNodeType(node));
            }
            return;
        }
        if (node instanceof SqlCall call && call.getKind() == SqlKind.CAST_NOT_NULL) {
            inferUnknownTypes(inferredType, scope, call.operand(0));
            return;
        }
        if (node instanceof SqlCase caseCall && isRewrittenCoalesce(caseCall)) {
            RelDataType resultType = deriveType(scope, caseCall);
            for (SqlNode result : caseCall.getThenOperands()) {
                inferUnknownTypes(resultType, scope, result);
            }
        }
        super.inferUnknownTypes(inferredType, scope, node);
    }

    /** The CASE Calcite makes of COALESCE: every result a cast to NOT NULL (see above). */
    private static boolean isRewrittenCoalesce(SqlCase caseCall)
    {
        return caseCall.getValueOperand() == null
                && caseCall.getThenOperands().stream().allMatch(result -> result.getKind() == SqlKind.CAST_NOT_NULL);
    }

    /**
     * The types of the validated statement's {@code ?} markers, in marker order (a marker Calcite
     * copied while rewriting counts once, unlike {@code getParameterRowType}).
     */
    public java.util.List<RelDataType> markerTypes()
    {
        return java.util.List.copyOf(new java.util.TreeMap<>(markerTypes).values());
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
