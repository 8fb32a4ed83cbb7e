package io.ontul.catalog.jdbc.query;

import java.util.Optional;

/**
 * Rewrites an engine LIKE pattern with its optional escape into one that uses
 * {@value #ESCAPE} as escape, which every database accepts the same way in
 * {@code LIKE ? ESCAPE '!'} (PostgreSQL and MySQL would otherwise treat a backslash as escape).
 */
public final class LikePatterns
{
    public static final char ESCAPE = '!';

    private LikePatterns() {}

    /** The rewritten pattern, or empty if the pattern or its escape is malformed (the engine reports it). */
    public static Optional<String> withStandardEscape(String pattern, Optional<String> escape)
    {
        if (escape.isPresent() && escape.get().length() != 1) {
            return Optional.empty();
        }
        Character escapeCharacter = escape.map(text -> text.charAt(0)).orElse(null);
        StringBuilder result = new StringBuilder(pattern.length() + 8);
        for (int i = 0; i < pattern.length(); i++) {
            char character = pattern.charAt(i);
            if (escapeCharacter != null && character == escapeCharacter) {
                if (i + 1 == pattern.length()) {
                    return Optional.empty();
                }
                char escaped = pattern.charAt(++i);
                if (escaped != '%' && escaped != '_' && escaped != escapeCharacter) {
                    return Optional.empty();
                }
                appendLiteral(result, escaped);
            }
            else if (character == '%' || character == '_') {
                result.append(character);
            }
            else {
                appendLiteral(result, character);
            }
        }
        return Optional.of(result.toString());
    }

    private static void appendLiteral(StringBuilder result, char character)
    {
        if (character == '%' || character == '_' || character == ESCAPE) {
            result.append(ESCAPE);
        }
        result.append(character);
    }
}
