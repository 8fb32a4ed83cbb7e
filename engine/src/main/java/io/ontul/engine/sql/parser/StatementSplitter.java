package io.ontul.engine.sql.parser;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a script into statements on semicolons that are outside string literals, quoted
 * identifiers and comments. Comments stay in the statement text; pieces holding only whitespace
 * and comments are dropped. An unterminated quote or comment runs to the end of the script, and
 * the parser then reports it.
 */
final class StatementSplitter
{
    private final String script;
    private final List<String> statements = new ArrayList<>();
    private int position;
    private int statementStart;
    private boolean statementHasCode;

    private StatementSplitter(String script)
    {
        this.script = script;
    }

    static List<String> split(String script)
    {
        StatementSplitter splitter = new StatementSplitter(script);
        splitter.run();
        return List.copyOf(splitter.statements);
    }

    private void run()
    {
        while (position < script.length()) {
            char c = script.charAt(position);
            if (c == ';') {
                endStatement();
                position++;
                statementStart = position;
            }
            else if (c == '-' && next() == '-') {
                skipPast("\n");
            }
            else if (c == '/' && next() == '*') {
                position += 2;
                skipPast("*/");
            }
            else if (c == '\'' || c == '"' || c == '`') {
                statementHasCode = true;
                skipQuoted(c);
            }
            else {
                statementHasCode |= !Character.isWhitespace(c);
                position++;
            }
        }
        endStatement();
    }

    private char next()
    {
        return position + 1 < script.length() ? script.charAt(position + 1) : 0;
    }

    private void skipPast(String end)
    {
        int found = script.indexOf(end, position);
        position = found < 0 ? script.length() : found + end.length();
    }

    /** Skips a quoted text, in which a doubled quote character stands for itself. */
    private void skipQuoted(char quote)
    {
        position++;
        while (position < script.length()) {
            if (script.charAt(position) == quote) {
                if (next() != quote) {
                    position++;
                    return;
                }
                position++;
            }
            position++;
        }
    }

    private void endStatement()
    {
        if (statementHasCode) {
            statements.add(script.substring(statementStart, position).strip());
        }
        statementHasCode = false;
    }
}
