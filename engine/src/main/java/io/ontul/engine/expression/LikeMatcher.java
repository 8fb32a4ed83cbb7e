package io.ontul.engine.expression;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A compiled LIKE pattern. Patterns made only of literal text and {@code %} (the common case:
 * {@code 'PROMO%'}, {@code '%special%requests%'}) match by searching the literal pieces in
 * order; anything else falls back to a regular expression.
 */
public final class LikeMatcher
{
    private final String[] pieces;
    private final boolean anchoredStart;
    private final boolean anchoredEnd;
    private final Pattern regex;

    private LikeMatcher(String[] pieces, boolean anchoredStart, boolean anchoredEnd, Pattern regex)
    {
        this.pieces = pieces;
        this.anchoredStart = anchoredStart;
        this.anchoredEnd = anchoredEnd;
        this.regex = regex;
    }

    public static LikeMatcher compile(String pattern, String escape)
    {
        if (escape == null && pattern.indexOf('_') < 0) {
            List<String> pieces = new ArrayList<>();
            for (String piece : pattern.split("%", -1)) {
                pieces.add(piece);
            }
            boolean anchoredStart = !pattern.startsWith("%");
            boolean anchoredEnd = !pattern.endsWith("%");
            List<String> nonEmpty = new ArrayList<>();
            for (String piece : pieces) {
                if (!piece.isEmpty()) {
                    nonEmpty.add(piece);
                }
            }
            return new LikeMatcher(nonEmpty.toArray(new String[0]), anchoredStart, anchoredEnd, null);
        }
        return new LikeMatcher(null, false, false, Functions.likePattern(pattern, escape));
    }

    public boolean matches(String value)
    {
        if (regex != null) {
            return regex.matcher(value).matches();
        }
        if (pieces.length == 0) {
            return !(anchoredStart && anchoredEnd) || value.isEmpty();
        }
        if (pieces.length == 1 && anchoredStart && anchoredEnd) {
            return value.equals(pieces[0]);
        }
        int position = 0;
        for (int i = 0; i < pieces.length; i++) {
            String piece = pieces[i];
            if (i == 0 && anchoredStart) {
                if (!value.startsWith(piece)) {
                    return false;
                }
                position = piece.length();
            }
            else if (i == pieces.length - 1 && anchoredEnd) {
                return value.length() - piece.length() >= position && value.endsWith(piece);
            }
            else {
                int found = value.indexOf(piece, position);
                if (found < 0) {
                    return false;
                }
                position = found + piece.length();
            }
        }
        return true;
    }
}
