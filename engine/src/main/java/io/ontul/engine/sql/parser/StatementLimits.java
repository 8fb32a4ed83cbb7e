package io.ontul.engine.sql.parser;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Bounds what one statement can make the parser, validator and planner do: its length, and how
 * deeply it nests. The parser, Calcite's validator and converter and the code generator recurse
 * once per level of nesting, so a statement nested deeper than the threads' stacks would fail
 * with a StackOverflowError (or, worse, slowly fill the heap). Checked before parsing (length,
 * parentheses, on the text) and after (the tree), without recursion of its own.
 * <p>
 * Long chains of AND and OR, which the parser nests one level per operator
 * ({@code a OR b OR c ...} 1,000 times is 1,000 levels deep), are rebalanced into trees of
 * logarithmic depth first: both operators are associative, so the meaning is unchanged.
 *
 * <p>
 * A GROUP BY may make at most {@code maxGroupingSets} grouping sets: {@code CUBE} of n columns
 * makes 2^n, which Calcite's validator and converter would expand one by one (CUBE of 20
 * columns is a million sets, and minutes of planning before the memory runs out).
 *
 * @param maxSqlLength characters a statement may have ({@code ontul.query.max-sql-length})
 * @param maxDepth levels of nesting ({@code ontul.query.max-expression-depth})
 * @param maxGroupingSets grouping sets of one GROUP BY ({@code ontul.query.max-grouping-sets}); 0 means no limit
 */
public record StatementLimits(int maxSqlLength, int maxDepth, int maxGroupingSets)
{
    public static final StatementLimits DEFAULT = new StatementLimits(1_000_000, 200, 2048);

    /** Length and nesting of parentheses, on the text (outside quotes and comments). */
    public void checkText(String sql)
    {
        if (maxSqlLength > 0 && sql.length() > maxSqlLength) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, "Statement is too long: %,d characters; at most %,d are allowed (ontul.query.max-sql-length)"
                    .formatted(sql.length(), maxSqlLength));
        }
        if (maxDepth <= 0) {
            return;
        }
        int depth = 0;
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            int afterComment = SqlLexing.endOfComment(sql, i);
            if (afterComment >= 0) {
                i = afterComment;
                continue;
            }
            if (c == '\'' || c == '"' || c == '`') {
                i = SqlLexing.endOfQuoted(sql, i);
                continue;
            }
            if (c == '(') {
                depth++;
                if (depth > maxDepth) {
                    SqlParserPos position = SqlLexing.position(sql, i);
                    throw tooDeep(position.getLineNum(), position.getColumnNum());
                }
            }
            else if (c == ')') {
                depth = Math.max(0, depth - 1);
            }
            i++;
        }
    }

    /**
     * Rebalances AND and OR chains of a parsed statement (in place), then checks how deeply it
     * nests.
     *
     * @return the statement
     */
    public SqlNode check(SqlNode statement)
    {
        rebalanceChains(statement);
        checkGroupingSets(statement);
        if (maxDepth <= 0) {
            return statement;
        }
        record Level(SqlNode node, int depth) {}
        Deque<Level> work = new ArrayDeque<>();
        work.push(new Level(statement, 1));
        while (!work.isEmpty()) {
            Level level = work.pop();
            if (level.depth() > maxDepth) {
                SqlParserPos pos = level.node().getParserPosition();
                throw tooDeep(pos.getLineNum(), pos.getColumnNum());
            }
            for (SqlNode child : children(level.node())) {
                work.push(new Level(child, level.depth() + 1));
            }
        }
        return statement;
    }

    private void checkGroupingSets(SqlNode statement)
    {
        if (maxGroupingSets <= 0) {
            return;
        }
        Deque<SqlNode> work = new ArrayDeque<>();
        work.push(statement);
        while (!work.isEmpty()) {
            SqlNode node = work.pop();
            if (node instanceof SqlSelect select && select.getGroup() != null) {
                double sets = 1;
                for (SqlNode element : select.getGroup()) {
                    sets *= groupingSets(element);
                }
                if (sets > maxGroupingSets) {
                    SqlParserPos pos = select.getGroup().getParserPosition();
                    throw new OntulException(ErrorCode.INVALID_ARGUMENT, "line %d:%d: GROUP BY makes %s grouping sets; at most %,d are allowed (ontul.query.max-grouping-sets)"
                            .formatted(pos.getLineNum(), pos.getColumnNum(), sets >= 1e15 ? String.format("%.3g", sets) : String.format("%,.0f", sets), maxGroupingSets));
                }
            }
            children(node).forEach(work::push);
        }
    }

    /** How many grouping sets one element of a GROUP BY makes (a double: CUBE of 2,000 columns must not overflow). */
    private static double groupingSets(SqlNode element)
    {
        if (!(element instanceof SqlCall call)) {
            return 1;
        }
        return switch (call.getKind()) {
            case CUBE -> Math.pow(2, call.operandCount());
            case ROLLUP -> call.operandCount() + 1;
            case GROUPING_SETS -> {
                double sum = 0;
                for (SqlNode operand : call.getOperandList()) {
                    sum += groupingSets(operand);
                }
                yield sum;
            }
            // a parenthesized list of columns in GROUPING SETS is one set
            default -> 1;
        };
    }

    private OntulException tooDeep(int line, int column)
    {
        return new OntulException(ErrorCode.INVALID_ARGUMENT,
                "line %d:%d: Statement is nested too deeply: more than %d levels of parentheses, subqueries or operators (ontul.query.max-expression-depth)"
                        .formatted(line, column, maxDepth));
    }

    private static List<SqlNode> children(SqlNode node)
    {
        List<SqlNode> children = new ArrayList<>();
        if (node instanceof SqlNodeList list) {
            for (SqlNode element : list) {
                if (element != null) {
                    children.add(element);
                }
            }
        }
        else if (node instanceof SqlCall call) {
            List<SqlNode> operands;
            try {
                operands = call.getOperandList();
            }
            catch (UnsupportedOperationException e) {
                return children;
            }
            for (SqlNode operand : operands) {
                if (operand != null) {
                    children.add(operand);
                }
            }
        }
        return children;
    }

    private static void rebalanceChains(SqlNode statement)
    {
        Deque<SqlNode> work = new ArrayDeque<>();
        work.push(statement);
        while (!work.isEmpty()) {
            SqlNode node = work.pop();
            if (isChainLink(node, null)) {
                SqlBasicCall call = (SqlBasicCall) node;
                List<SqlNode> leaves = leaves(call);
                if (leaves.size() > 2) {
                    int half = leaves.size() / 2;
                    call.setOperand(0, balanced(call.getOperator(), leaves.subList(0, half)));
                    call.setOperand(1, balanced(call.getOperator(), leaves.subList(half, leaves.size())));
                }
                leaves.forEach(work::push);
                continue;
            }
            children(node).forEach(work::push);
        }
    }

    /** A binary AND or OR (of the same operator as {@code parent}, when given). */
    private static boolean isChainLink(SqlNode node, SqlOperator parent)
    {
        return node instanceof SqlBasicCall call
                && (call.getKind() == SqlKind.AND || call.getKind() == SqlKind.OR)
                && call.operandCount() == 2
                && (parent == null || call.getOperator() == parent);
    }

    /** The operands of a chain of one operator, left to right, found without recursion. */
    private static List<SqlNode> leaves(SqlBasicCall chain)
    {
        List<SqlNode> leaves = new ArrayList<>();
        Deque<SqlNode> work = new ArrayDeque<>();
        work.push(chain);
        while (!work.isEmpty()) {
            SqlNode node = work.pop();
            if (isChainLink(node, chain.getOperator())) {
                SqlBasicCall call = (SqlBasicCall) node;
                work.push(call.operand(1));
                work.push(call.operand(0));
            }
            else {
                leaves.add(node);
            }
        }
        return leaves;
    }

    private static SqlNode balanced(SqlOperator operator, List<SqlNode> operands)
    {
        if (operands.size() == 1) {
            return operands.get(0);
        }
        int half = operands.size() / 2;
        SqlNode left = balanced(operator, operands.subList(0, half));
        SqlNode right = balanced(operator, operands.subList(half, operands.size()));
        return operator.createCall(left.getParserPosition().plus(right.getParserPosition()), left, right);
    }
}
