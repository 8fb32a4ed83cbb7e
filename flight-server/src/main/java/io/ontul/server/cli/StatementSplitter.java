package io.ontul.server.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a script into statements at each {@code ;} that is outside a string literal
 * ({@code '...'}, with {@code ''} as an escaped quote), a quoted identifier ({@code "..."}), a
 * line comment ({@code -- ...}) and a block comment ({@code /* ... *}{@code /}). Statements are
 * trimmed; pieces holding only blanks and comments are dropped. An unterminated literal or
 * comment runs to the end of the script, so the parser reports it.
 * <p>
 * Stands in until the SQL parser offers its own splitter.
 */
public final class StatementSplitter
{
    private enum State
    {
        CODE, STRING, QUOTED_IDENTIFIER, LINE_COMMENT, BLOCK_COMMENT
    }

    private StatementSplitter() {}

    public static List<String> split(String script)
    {
        List<String> statements = new ArrayList<>();
        State state = State.CODE;
        int start = 0;
        boolean hasCode = false;
        for (int index = 0; index < script.length(); index++) {
            char character = script.charAt(index);
            char next = index + 1 < script.length() ? script.charAt(index + 1) : 0;
            switch (state) {
                case CODE -> {
                    if (character == ';') {
                        addStatement(statements, script.substring(start, index), hasCode);
                        start = index + 1;
                        hasCode = false;
                    }
                    else if (character == '-' && next == '-') {
                        state = State.LINE_COMMENT;
                        index++;
                    }
                    else if (character == '/' && next == '*') {
                        state = State.BLOCK_COMMENT;
                        index++;
                    }
                    else if (!Character.isWhitespace(character)) {
                        hasCode = true;
                        if (character == '\'') {
                            state = State.STRING;
                        }
                        else if (character == '"') {
                            state = State.QUOTED_IDENTIFIER;
                        }
                    }
                }
                // a doubled quote inside a literal leaves and re-enters the literal: same result
                case STRING -> state = character == '\'' ? State.CODE : State.STRING;
                case QUOTED_IDENTIFIER -> state = character == '"' ? State.CODE : State.QUOTED_IDENTIFIER;
                case LINE_COMMENT -> state = character == '\n' ? State.CODE : State.LINE_COMMENT;
                case BLOCK_COMMENT -> {
                    if (character == '*' && next == '/') {
                        state = State.CODE;
                        index++;
                    }
                }
            }
        }
        addStatement(statements, script.substring(start), hasCode);
        return List.copyOf(statements);
    }

    private static void addStatement(List<String> statements, String text, boolean hasCode)
    {
        if (hasCode) {
            statements.add(text.trim());
        }
    }
}
