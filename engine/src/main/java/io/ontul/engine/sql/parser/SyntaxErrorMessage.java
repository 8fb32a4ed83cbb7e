package io.ontul.engine.sql.parser;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.ontul.engine.sql.parser.impl.OntulSqlParserImplConstants;
import io.ontul.engine.sql.parser.impl.OntulSqlParserImplTokenManager;
import io.ontul.engine.sql.parser.impl.ParseException;
import io.ontul.engine.sql.parser.impl.SimpleCharStream;
import io.ontul.engine.sql.parser.impl.Token;
import io.ontul.engine.sql.parser.impl.TokenMgrError;

/**
 * Turns Calcite's parse exception into {@code line L:C: Syntax error at or near "token"; expected
 * one of: A, B}, without Calcite's token dumps. The expected tokens are listed only when there are
 * at most {@link #MAX_EXPECTED} of them.
 *
 * <p>The parser looks two tokens ahead, so the position Calcite reports may be one token before
 * the offending one: this class lexes the statement again and finds the first token that no
 * expected token sequence accepts.
 */
final class SyntaxErrorMessage
{
    static final int MAX_EXPECTED = 8;

    private static final Set<String> DESCRIPTIVE_NAMES = Set.of("identifier", "number", "string", "end of input");

    private SyntaxErrorMessage() {}

    static String of(SqlParseException exception, String sql)
    {
        SqlParserPos pos = exception.getPos();
        if (pos == null) {
            return "line 1:1: " + (SqlRedaction.mayHoldPasswords(sql) ? "Syntax error" : firstLine(exception.getMessage()));
        }
        Throwable cause = exception.getCause();
        if (cause instanceof TokenMgrError) {
            String character = characterAt(sql, pos);
            if (character.isEmpty()) {
                // Only a comment can run into the end: an unterminated string is a quote token.
                return unterminatedComment(sql, pos);
            }
            return location(pos.getLineNum(), pos.getColumnNum()) + "Syntax error at or near \"" + character + "\"";
        }
        List<Token> tokens = tokens(sql);
        int first = endOfInput(cause) ? tokens.size() - 1 : indexAt(tokens, pos);
        int[][] sequences = exception.getExpectedTokenSequences();
        if (!(cause instanceof ParseException) || sequences == null || first < 0) {
            // Raised by a production's action, for example an identifier that is too long.
            // Such messages may quote a token; none is quoted where it may be a password.
            return location(pos.getLineNum(), pos.getColumnNum())
                    + (SqlRedaction.mayHoldPasswords(sql) ? "Syntax error" : firstLine(exception.getMessage()));
        }

        int matched = 0;
        for (int[] sequence : sequences) {
            matched = Math.max(matched, matchedPrefix(sequence, tokens, first));
        }
        Token offending = tokens.get(Math.min(first + matched, tokens.size() - 1));
        StringBuilder message = new StringBuilder();
        if (offending.kind == OntulSqlParserImplConstants.EOF) {
            Token last = first + matched > 0 ? tokens.get(first + matched - 1) : offending;
            message.append(location(last.endLine, last.endColumn + 1)).append("Syntax error at end of input");
        }
        else if (offending.kind == OntulSqlParserImplConstants.QUOTE) {
            return location(offending.beginLine, offending.beginColumn) + "Unterminated string literal";
        }
        else if (offending.kind == OntulSqlParserImplConstants.DOUBLE_QUOTE) {
            return location(offending.beginLine, offending.beginColumn) + "Unterminated quoted identifier";
        }
        else if (SqlRedaction.mayHoldPasswords(sql) && !isKeywordOrSymbol(offending, exception.getTokenImages())) {
            // the token may be a password, written where the grammar does not expect it
            message.append(location(offending.beginLine, offending.beginColumn)).append("Syntax error");
        }
        else {
            message.append(location(offending.beginLine, offending.beginColumn))
                    .append("Syntax error at or near \"").append(abbreviate(offending.image)).append('"');
        }

        Set<String> expected = expectedNames(sequences, tokens, first, matched, exception.getTokenImages());
        if (!expected.isEmpty() && expected.size() <= MAX_EXPECTED) {
            message.append("; expected one of: ").append(String.join(", ", expected));
        }
        return message.toString();
    }

    /** A token with a fixed image, such as FROM or '(', as opposed to a name or a literal. */
    private static boolean isKeywordOrSymbol(Token token, String[] images)
    {
        return token.kind < images.length && images[token.kind].startsWith("\"");
    }

    private static String location(int line, int column)
    {
        return "line " + line + ":" + column + ": ";
    }

    /** The statement's tokens, ending with EOF, or with the token before a lexical error. */
    private static List<Token> tokens(String sql)
    {
        SimpleCharStream stream = new SimpleCharStream(new StringReader(sql), 1, 1, sql.length() + 1)
        {
            {
                // As Calcite's SqlParser: a tab is one column.
                setTabSize(1);
            }
        };
        OntulSqlParserImplTokenManager lexer = new OntulSqlParserImplTokenManager(stream);
        // The lexical state in which identifiers are double-quoted, as in OntulParser's configuration.
        lexer.SwitchTo(Arrays.asList(OntulSqlParserImplTokenManager.lexStateNames).indexOf("DQID"));
        List<Token> tokens = new ArrayList<>();
        try {
            Token token;
            do {
                token = lexer.getNextToken();
                tokens.add(token);
            }
            while (token.kind != OntulSqlParserImplConstants.EOF);
        }
        catch (TokenMgrError e) {
            // The parser failed before reaching this point; the tokens so far suffice.
        }
        return tokens;
    }

    /** Whether the parser failed at the end; JavaCC places EOF on the last character, not after it. */
    private static boolean endOfInput(Throwable cause)
    {
        return cause instanceof ParseException parseException
                && parseException.currentToken != null
                && parseException.currentToken.next.kind == OntulSqlParserImplConstants.EOF;
    }

    private static int indexAt(List<Token> tokens, SqlParserPos pos)
    {
        for (int i = 0; i < tokens.size(); i++) {
            Token token = tokens.get(i);
            if (token.beginLine == pos.getLineNum() && token.beginColumn == pos.getColumnNum()) {
                return i;
            }
        }
        return -1;
    }

    /** How many of the tokens from {@code first} on match the start of an expected sequence. */
    private static int matchedPrefix(int[] sequence, List<Token> tokens, int first)
    {
        int matched = 0;
        while (matched < sequence.length - 1
                && first + matched < tokens.size()
                && tokens.get(first + matched).kind == sequence[matched]) {
            matched++;
        }
        return matched;
    }

    private static Set<String> expectedNames(int[][] sequences, List<Token> tokens, int first, int matched, String[] images)
    {
        Set<String> keywords = new LinkedHashSet<>();
        Set<String> symbols = new LinkedHashSet<>();
        Set<String> descriptions = new LinkedHashSet<>();
        for (int[] sequence : sequences) {
            if (sequence.length > matched && matchedPrefix(sequence, tokens, first) == matched) {
                String name = displayName(images[sequence[matched]]);
                if (DESCRIPTIVE_NAMES.contains(name)) {
                    descriptions.add(name);
                }
                else if (name.startsWith("'")) {
                    symbols.add(name);
                }
                else {
                    keywords.add(name);
                }
            }
        }
        keywords.addAll(symbols);
        keywords.addAll(descriptions);
        return keywords;
    }

    /** {@code "FROM"} becomes FROM, {@code ","} becomes ',', {@code <IDENTIFIER>} becomes identifier. */
    private static String displayName(String image)
    {
        if (image.length() > 2 && image.startsWith("\"") && image.endsWith("\"")) {
            String text = image.substring(1, image.length() - 1).replace("\\\"", "\"");
            return Character.isLetter(text.charAt(0)) ? text : "'" + text + "'";
        }
        String name = image.replaceAll("^<|>$", "");
        if (name.equals("EOF")) {
            return "end of input";
        }
        if (name.endsWith("IDENTIFIER")) {
            return "identifier";
        }
        if (name.endsWith("STRING") || name.endsWith("STRING_LITERAL")) {
            return "string";
        }
        if (name.endsWith("NUMERIC_LITERAL") || name.endsWith("INTEGER_LITERAL")) {
            return "number";
        }
        return name.toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static String unterminatedComment(String sql, SqlParserPos end)
    {
        int start = sql.lastIndexOf("/*");
        if (start < 0) {
            return location(end.getLineNum(), end.getColumnNum()) + "Unterminated comment";
        }
        SqlParserPos position = SqlLexing.position(sql, start);
        return location(position.getLineNum(), position.getColumnNum()) + "Unterminated comment";
    }

    private static String characterAt(String sql, SqlParserPos pos)
    {
        int offset = 0;
        for (int line = 1; line < pos.getLineNum() && offset >= 0; line++) {
            offset = sql.indexOf('\n', offset);
            offset = offset < 0 ? -1 : offset + 1;
        }
        offset = offset < 0 ? -1 : offset + pos.getColumnNum() - 1;
        return offset >= 0 && offset < sql.length() ? String.valueOf(sql.charAt(offset)) : "";
    }

    private static String abbreviate(String text)
    {
        return text.length() > 40 ? text.substring(0, 40) + "..." : text;
    }

    private static String firstLine(String message)
    {
        if (message == null) {
            return "Syntax error";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
