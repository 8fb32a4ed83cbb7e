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
            else if (SqlLexing.endOfComment(script, position) >= 0) {
                position = SqlLexing.endOfComment(script, position);
            }
            else if (c == '\'' || c == '"' || c == '`') {
                statementHasCode = true;
                position = SqlLexing.endOfQuoted(script, position);
            }
            else {
                statementHasCode |= !Character.isWhitespace(c);
                position++;
            }
        }
        endStatement();
    }

    private void endStatement()
    {
        if (statementHasCode) {
            statements.add(script.substring(statementStart, position).strip());
        }
        statementHasCode = false;
    }
}
