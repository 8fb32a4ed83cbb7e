package io.ontul.engine.plan;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Gives a window that names another and has a frame of its own, {@code OVER (w ROWS BETWEEN 1
 * PRECEDING AND 1 FOLLOWING)}, that frame. Calcite's validator (1.42, {@code SqlWindow.overlay})
 * keeps such a window's ROWS or RANGE but takes the frame bounds of the window it names, which
 * has none: the function would run over the default frame instead, and answer wrong. Before
 * validation, this copies the PARTITION BY and ORDER BY the name stands for (following a chain
 * of names, {@code w2 AS (w1 ORDER BY ...)}) into the referencing window and drops the
 * reference, which is what the reference means in SQL (ISO 9075 7.11).
 * <p>
 * A name is looked up in the WINDOW clause of the SELECT that holds the window (for an ORDER BY
 * outside the SELECT in the parse tree, the SELECT it orders), then in those of the enclosing
 * SELECTs, as Calcite does. A reference SQL forbids (a PARTITION BY of its own, ORDER BY in two
 * windows of the chain, a named window with a frame) or a name not found is left as it is, for
 * the validator to reject. The tree is changed in place.
 */
final class WindowReferenceFrames
        extends SqlShuttle
{
    // a chain of names longer than this is left to the validator (it may be a cycle)
    private static final int MAX_CHAIN = 64;

    // per enclosing SELECT, innermost first: its named windows
    private final Deque<Map<String, SqlWindow>> scopes = new ArrayDeque<>();

    private WindowReferenceFrames() {}

    /** Applies the rewrite to {@code query} and returns it. */
    static SqlNode inline(SqlNode query)
    {
        return query.accept(new WindowReferenceFrames());
    }

    @Override
    public SqlNode visit(SqlCall call)
    {
        SqlSelect scope = call instanceof SqlSelect select ? select
                : call instanceof SqlOrderBy orderBy && orderBy.query instanceof SqlSelect select ? select
                : null;
        if (scope != null) {
            scopes.push(namedWindows(scope));
            try {
                return super.visit(call);
            }
            finally {
                scopes.pop();
            }
        }
        if (call instanceof SqlWindow window) {
            inlineReference(window);
        }
        return super.visit(call);
    }

    private static Map<String, SqlWindow> namedWindows(SqlSelect select)
    {
        Map<String, SqlWindow> named = new HashMap<>();
        for (SqlNode node : select.getWindowList()) {
            if (node instanceof SqlWindow window && window.getDeclName() != null) {
                named.put(window.getDeclName().getSimple(), window);
            }
        }
        return named;
    }

    private void inlineReference(SqlWindow window)
    {
        if (window.getRefName() == null || (window.getLowerBound() == null && window.getUpperBound() == null) || window.getPartitionList().size() > 0) {
            return;
        }
        SqlNodeList partitionList = null;
        SqlNodeList orderList = window.getOrderList().size() > 0 ? window.getOrderList() : null;
        SqlWindow named = window;
        for (int depth = 0; named.getRefName() != null; depth++) {
            named = lookUp(named.getRefName().getSimple());
            if (named == null || depth == MAX_CHAIN || named.getLowerBound() != null || named.getUpperBound() != null) {
                return;
            }
            if (named.getOrderList().size() > 0) {
                if (orderList != null) {
                    return;
                }
                orderList = named.getOrderList();
            }
            if (named.getPartitionList().size() > 0) {
                if (named.getRefName() != null) {
                    // a window that names another may not partition again
                    return;
                }
                partitionList = named.getPartitionList();
            }
        }
        if (partitionList != null) {
            window.setPartitionList(partitionList);
        }
        if (orderList != null) {
            window.setOrderList(orderList);
        }
        // operand 1 is the name of the window referred to
        window.setOperand(1, null);
    }

    private SqlWindow lookUp(String name)
    {
        for (Map<String, SqlWindow> scope : scopes) {
            SqlWindow window = scope.get(name);
            if (window != null) {
                return window;
            }
        }
        return null;
    }
}
