package io.ontul.engine.testing;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The top-level ORDER BY and LIMIT of a query text, as far as result comparison needs them: the
 * sort keys (each a column name, a qualified name whose last part names the column, or an
 * ordinal) and whether the row count is cut. Parentheses, quotes and comments are skipped, so
 * ORDER BY inside a subquery does not count.
 */
public final class OrderByClause
{
    private static final Pattern NAME = Pattern.compile("(?:[a-z_][a-z0-9_$]*\\.)*([a-z_][a-z0-9_$]*|\"[^\"]+\")");
    private static final Pattern ORDINAL = Pattern.compile("[0-9]+");
    private static final Pattern LIMIT_COUNT = Pattern.compile("(?:limit|fetch first) ([0-9]+)\\b");
    private static final Pattern DIRECTION = Pattern.compile("(\\s+(asc|desc))?(\\s+nulls\\s+(first|last))?$");

    private final boolean ordered;
    private final List<String> keys;
    private final boolean limited;
    private final OptionalLong limit;

    private OrderByClause(boolean ordered, List<String> keys, boolean limited, OptionalLong limit)
    {
        this.ordered = ordered;
        this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
        this.limited = limited;
        this.limit = requireNonNull(limit, "limit is null");
    }

    public static OrderByClause of(String sql)
    {
        String text = topLevelText(sql);
        int orderBy = lastWord(text, "order by");
        int limit = Math.max(lastWord(text, "limit"), lastWord(text, "fetch first"));
        boolean limited = limit >= 0 && limit > orderBy;
        OptionalLong limitCount = limited ? count(text.substring(limit)) : OptionalLong.empty();
        if (orderBy < 0) {
            return new OrderByClause(false, List.of(), limited, limitCount);
        }
        int end = limited ? limit : text.length();
        String items = text.substring(orderBy + "order by".length(), end).trim();
        List<String> keys = new ArrayList<>();
        for (String item : items.split(",")) {
            keys.add(DIRECTION.matcher(item.trim()).replaceFirst(""));
        }
        return new OrderByClause(true, keys, limited, limitCount);
    }

    /** True when the query has a top-level ORDER BY. */
    public boolean ordered()
    {
        return ordered;
    }

    /** True when a top-level LIMIT or FETCH FIRST may cut the result. */
    public boolean limited()
    {
        return limited;
    }

    /**
     * True when the LIMIT may have cut rows from a result of {@code rowCount} rows: the count
     * reached the limit, or the limit is not a literal.
     */
    public boolean mayBeCut(long rowCount)
    {
        return limited && (limit.isEmpty() || rowCount >= limit.getAsLong());
    }

    /** The sort key expressions as written, lower case, without ASC/DESC/NULLS. */
    public List<String> keys()
    {
        return keys;
    }

    /**
     * The result columns of the sort keys, or empty when some key is an expression that names no
     * result column.
     */
    public Optional<List<Integer>> keyColumns(List<String> columnNames)
    {
        List<Integer> columns = new ArrayList<>();
        for (String key : keys) {
            int column = keyColumn(key, columnNames);
            if (column < 0) {
                return Optional.empty();
            }
            columns.add(column);
        }
        return Optional.of(List.copyOf(columns));
    }

    private static int keyColumn(String key, List<String> columnNames)
    {
        if (ORDINAL.matcher(key).matches()) {
            int ordinal = Integer.parseInt(key);
            return ordinal >= 1 && ordinal <= columnNames.size() ? ordinal - 1 : -1;
        }
        Matcher name = NAME.matcher(key);
        if (!name.matches()) {
            return -1;
        }
        String column = name.group(1).replace("\"", "");
        for (int index = 0; index < columnNames.size(); index++) {
            if (columnNames.get(index).equalsIgnoreCase(column)) {
                return index;
            }
        }
        return -1;
    }

    /**
     * The query in lower case with comments removed, whitespace collapsed, and the inside of
     * parentheses and string literals blanked out, so only top-level words remain.
     */
    private static String topLevelText(String sql)
    {
        StringBuilder text = new StringBuilder();
        int depth = 0;
        int position = 0;
        while (position < sql.length()) {
            char c = sql.charAt(position);
            if (c == '-' && sql.startsWith("--", position)) {
                int lineEnd = sql.indexOf('\n', position);
                position = lineEnd < 0 ? sql.length() : lineEnd;
                continue;
            }
            if (c == '\'' || c == '"') {
                int close = sql.indexOf(c, position + 1);
                while (close >= 0 && close + 1 < sql.length() && sql.charAt(close + 1) == c) {
                    close = sql.indexOf(c, close + 2);
                }
                close = close < 0 ? sql.length() - 1 : close;
                if (depth == 0) {
                    text.append(sql, position, close + 1);
                }
                position = close + 1;
                continue;
            }
            if (c == '(') {
                depth++;
            }
            else if (c == ')') {
                depth--;
            }
            else if (depth == 0) {
                text.append(Character.isWhitespace(c) ? ' ' : c);
            }
            position++;
        }
        return text.toString().toLowerCase(Locale.ROOT).replaceAll(" +", " ").replaceAll(" ?; ?$", "");
    }

    private static OptionalLong count(String limitClause)
    {
        Matcher matcher = LIMIT_COUNT.matcher(limitClause);
        return matcher.lookingAt() ? OptionalLong.of(Long.parseLong(matcher.group(1))) : OptionalLong.empty();
    }

    private static int lastWord(String text, String words)
    {
        Matcher matcher = Pattern.compile("\\b" + words + "\\b").matcher(text);
        int last = -1;
        while (matcher.find()) {
            last = matcher.start();
        }
        return last;
    }
}
