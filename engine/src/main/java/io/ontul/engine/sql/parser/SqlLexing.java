package io.ontul.engine.sql.parser;

import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The few lexical rules that scans of SQL text before parsing share: where a quoted text or a
 * comment ends, and which line and column an offset is at.
 */
final class SqlLexing
{
    private SqlLexing() {}

    /**
     * The index just past the string literal or quoted identifier opened at {@code start} (a
     * doubled quote character stands for itself); the text's length when it is unterminated.
     */
    static int endOfQuoted(String sql, int start)
    {
        char quote = sql.charAt(start);
        int position = start + 1;
        while (position < sql.length()) {
            if (sql.charAt(position) == quote) {
                if (position + 1 >= sql.length() || sql.charAt(position + 1) != quote) {
                    return position + 1;
                }
                position++;
            }
            position++;
        }
        return sql.length();
    }

    /**
     * The index just past the comment that starts at {@code start} ({@code --} to the end of its
     * line, {@code /*} past its closing), the text's length when it is unterminated; -1 when no
     * comment starts there.
     */
    static int endOfComment(String sql, int start)
    {
        if (sql.startsWith("--", start)) {
            int end = sql.indexOf('\n', start);
            return end < 0 ? sql.length() : end + 1;
        }
        if (sql.startsWith("/*", start)) {
            int end = sql.indexOf("*/", start + 2);
            return end < 0 ? sql.length() : end + 2;
        }
        return -1;
    }

    /** The line and column (both from 1) of character {@code offset} of {@code sql}. */
    static SqlParserPos position(String sql, int offset)
    {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset; i++) {
            if (sql.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new SqlParserPos(line, offset - lineStart + 1);
    }
}
