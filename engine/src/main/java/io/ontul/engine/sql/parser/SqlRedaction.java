package io.ontul.engine.sql.parser;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Masks the passwords in SQL text before it is shown or kept anywhere (a query history, a log, an
 * error message). Works on text that does not parse, too.
 *
 * <p>Masked, as {@value #MASK}: every string literal of a user statement ({@code CREATE [OR
 * REPLACE] USER}, {@code ALTER USER}) and of {@code CREATE CATALOG} (its properties may hold the
 * password of a database), and in any statement a string literal right after the
 * word {@code PASSWORD} (optionally followed by {@code =}). An unterminated literal is masked to
 * the end of the text. Comments, quoted identifiers and the rest of the text are kept as written;
 * semicolons separate statements, so a script is redacted statement by statement.
 */
public final class SqlRedaction
{
    public static final String MASK = "'***'";

    private final String sql;
    private final StringBuilder redacted = new StringBuilder();
    private final List<String> leadingWords = new ArrayList<>();
    private int position;
    private int copiedUpTo;
    private String previousWord = "";
    private boolean afterPasswordWord;
    private boolean secretSeen;

    private SqlRedaction(String sql)
    {
        this.sql = sql;
    }

    /** The text with its passwords replaced by {@value #MASK}; the text itself when it has none. */
    public static String redact(String sql)
    {
        requireNonNull(sql, "sql is null");
        SqlRedaction redaction = new SqlRedaction(sql);
        redaction.run();
        return redaction.redacted.toString();
    }

    /**
     * Whether the text is a user or catalog statement or mentions {@code PASSWORD}: then it may hold a
     * password even where {@link #redact} finds no string literal to mask (a password written
     * without quotes, say), and error messages must not quote its tokens.
     */
    public static boolean mayHoldPasswords(String sql)
    {
        requireNonNull(sql, "sql is null");
        SqlRedaction redaction = new SqlRedaction(sql);
        redaction.run();
        return redaction.secretSeen;
    }

    private void run()
    {
        while (position < sql.length()) {
            char c = sql.charAt(position);
            if (c == ';') {
                leadingWords.clear();
                previousWord = "";
                afterPasswordWord = false;
                position++;
            }
            else if (c == '-' && next() == '-') {
                skipPast("\n");
            }
            else if (c == '/' && next() == '*') {
                position += 2;
                skipPast("*/");
            }
            else if (c == '\'') {
                stringLiteral();
            }
            else if (c == '"' || c == '`') {
                skipQuoted(c);
                word("");
            }
            else if (Character.isLetterOrDigit(c) || c == '_' || c == '$') {
                int start = position;
                while (position < sql.length() && (Character.isLetterOrDigit(sql.charAt(position)) || sql.charAt(position) == '_' || sql.charAt(position) == '$')) {
                    position++;
                }
                word(sql.substring(start, position).toUpperCase(Locale.ROOT));
            }
            else if (Character.isWhitespace(c)) {
                position++;
            }
            else {
                // PASSWORD = 'secret' keeps the literal secret; any other symbol ends that
                afterPasswordWord = c == '=' && previousWord.equals("PASSWORD");
                previousWord = String.valueOf(c);
                position++;
            }
        }
        redacted.append(sql, copiedUpTo, sql.length());
    }

    private void word(String word)
    {
        if (leadingWords.size() < 4) {
            leadingWords.add(word);
        }
        afterPasswordWord = word.equals("PASSWORD");
        secretSeen |= afterPasswordWord || isUserStatement();
        previousWord = word;
    }

    private boolean isUserStatement()
    {
        // a catalog's properties may hold the password of the system it reads: all its literals are masked
        return startsWith("CREATE", "USER") || startsWith("CREATE", "OR", "REPLACE", "USER") || startsWith("ALTER", "USER")
                || startsWith("CREATE", "CATALOG");
    }

    private boolean startsWith(String... words)
    {
        return leadingWords.size() >= words.length && leadingWords.subList(0, words.length).equals(List.of(words));
    }

    private void stringLiteral()
    {
        int start = position;
        skipQuoted('\'');
        if (afterPasswordWord || isUserStatement()) {
            secretSeen = true;
            redacted.append(sql, copiedUpTo, start).append(MASK);
            copiedUpTo = position;
        }
        afterPasswordWord = false;
        previousWord = "'";
    }

    private char next()
    {
        return position + 1 < sql.length() ? sql.charAt(position + 1) : 0;
    }

    private void skipPast(String end)
    {
        int found = sql.indexOf(end, position);
        position = found < 0 ? sql.length() : found + end.length();
    }

    /** Skips a quoted text, in which a doubled quote character stands for itself. */
    private void skipQuoted(char quote)
    {
        position++;
        while (position < sql.length()) {
            if (sql.charAt(position) == quote) {
                if (next() != quote) {
                    position++;
                    return;
                }
                position++;
            }
            position++;
        }
    }
}
