package io.ontul.engine.plan;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Gives a window that names another and has a frame of its own, {@code OVER (w ROWS BETWEEN 1
 * PRECEDING AND 1 FOLLOWING)}, that frame. Calcite's validator (1.42, {@code SqlWindow.overlay})
 * keeps such a window's ROWS or RANGE but takes the frame bounds of the window it names, which
 * has none: the function would run over the default frame instead, and answer wrong. Before
 * validation, this copies the named window's PARTITION BY and ORDER BY into the referencing
 * window and drops the reference, which is what the reference means in SQL (ISO 9075 7.11).
 * <p>
 * A reference SQL forbids (a PARTITION BY of its own, ORDER BY in both, a named window with a
 * frame) and a reference to a window that itself names another are left as they are, for the
 * validator to reject or resolve. The tree is changed in place. Window names are looked up in
 * the WINDOW clause of the SELECT that holds the window.
 */
final class WindowReferenceFrames
        extends SqlShuttle
{
    // per enclosing SELECT, its named windows
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
        if (call instanceof SqlSelect select) {
            Map<String, SqlWindow> named = new HashMap<>();
            for (SqlNode node : select.getWindowList()) {
                if (node instanceof SqlWindow window && window.getDeclName() != null) {
                    named.put(window.getDeclName().getSimple(), window);
                }
            }
            scopes.push(named);
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

    private void inlineReference(SqlWindow window)
    {
        if (window.getRefName() == null || (window.getLowerBound() == null && window.getUpperBound() == null) || scopes.isEmpty()) {
            return;
        }
        SqlWindow named = scopes.peek().get(window.getRefName().getSimple());
        if (named == null || named.getRefName() != null || named.getLowerBound() != null || named.getUpperBound() != null
                || window.getPartitionList().size() > 0 || (window.getOrderList().size() > 0 && named.getOrderList().size() > 0)) {
            return;
        }
        window.setPartitionList(named.getPartitionList());
        if (window.getOrderList().size() == 0) {
            window.setOrderList(named.getOrderList());
        }
        // operand 1 is the name of the window referred to
        window.setOperand(1, null);
    }
}
