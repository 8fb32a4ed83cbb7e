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
    private final byte[][] pieceBytes;
    private final boolean anchoredStart;
    private final boolean anchoredEnd;
    private final Pattern regex;

    private LikeMatcher(String[] pieces, boolean anchoredStart, boolean anchoredEnd, Pattern regex)
    {
        this.pieces = pieces;
        if (pieces != null) {
            this.pieceBytes = new byte[pieces.length][];
            for (int i = 0; i < pieces.length; i++) {
                pieceBytes[i] = pieces[i].getBytes(java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        else {
            this.pieceBytes = null;
        }
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

    /** True when {@link #matches(org.apache.arrow.vector.VarCharVector, int)} can run on bytes. */
    public boolean matchesBytes()
    {
        return regex == null;
    }

    /**
     * Matches a UTF-8 cell in place. Valid for patterns of literal text and {@code %} only:
     * UTF-8 is self-synchronising, so byte search finds exactly the character matches.
     */
    public boolean matches(org.apache.arrow.vector.VarCharVector vector, int index)
    {
        org.apache.arrow.memory.ArrowBuf data = vector.getDataBuffer();
        long start = vector.getStartOffset(index);
        long end = vector.getEndOffset(index);
        if (pieceBytes.length == 0) {
            return !(anchoredStart && anchoredEnd) || start == end;
        }
        long position = start;
        for (int i = 0; i < pieceBytes.length; i++) {
            byte[] piece = pieceBytes[i];
            boolean last = i == pieceBytes.length - 1;
            if (i == 0 && anchoredStart) {
                if (end - start < piece.length || !regionEquals(data, start, piece)) {
                    return false;
                }
                position = start + piece.length;
                if (last && anchoredEnd) {
                    return position == end;
                }
            }
            else if (last && anchoredEnd) {
                long from = end - piece.length;
                return from >= position && regionEquals(data, from, piece);
            }
            else {
                long found = indexOf(data, position, end, piece);
                if (found < 0) {
                    return false;
                }
                position = found + piece.length;
            }
        }
        return true;
    }

    private static boolean regionEquals(org.apache.arrow.memory.ArrowBuf data, long at, byte[] piece)
    {
        for (int j = 0; j < piece.length; j++) {
            if (data.getByte(at + j) != piece[j]) {
                return false;
            }
        }
        return true;
    }

    private static long indexOf(org.apache.arrow.memory.ArrowBuf data, long from, long end, byte[] piece)
    {
        byte first = piece[0];
        for (long at = from; at + piece.length <= end; at++) {
            if (data.getByte(at) == first && regionEquals(data, at, piece)) {
                return at;
            }
        }
        return -1;
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
