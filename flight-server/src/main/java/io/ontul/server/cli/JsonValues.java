package io.ontul.server.cli;

import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.NonNullableStructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Values of Arrow vectors as JSON text, for JSON Lines and the HTTP API's result rows. Numbers
 * (integers, DECIMAL, DOUBLE) are JSON numbers, except NaN and infinities, which JSON cannot hold,
 * as strings; BOOLEAN is {@code true}/{@code false}; SQL NULL is {@code null}; dates, times,
 * timestamps, text and binary are strings with the text of {@link ValueRenderer}; ARRAY is an
 * array and ROW an object (a MAP is an array of {@code {"key":..,"value":..}} objects).
 */
public final class JsonValues
{
    private JsonValues() {}

    /** Appends the value at {@code row} of {@code vector}. */
    public static void appendValue(StringBuilder line, ValueVector vector, int row)
    {
        if (vector.isNull(row)) {
            line.append("null");
        }
        else if (vector instanceof ListVector list) {
            line.append('[');
            for (int index = list.getElementStartIndex(row); index < list.getElementEndIndex(row); index++) {
                if (index > list.getElementStartIndex(row)) {
                    line.append(',');
                }
                appendValue(line, list.getDataVector(), index);
            }
            line.append(']');
        }
        else if (vector instanceof NonNullableStructVector struct) {
            line.append('{');
            List<FieldVector> children = struct.getChildrenFromFields();
            for (int child = 0; child < children.size(); child++) {
                if (child > 0) {
                    line.append(',');
                }
                appendString(line, children.get(child).getName());
                line.append(':');
                appendValue(line, children.get(child), row);
            }
            line.append('}');
        }
        else {
            appendScalar(line, vector.getField().getType(), ValueRenderer.render(vector, row));
        }
    }

    private static void appendScalar(StringBuilder line, ArrowType type, String text)
    {
        boolean finiteNumber = ValueRenderer.isNumber(type) && !text.endsWith("NaN") && !text.endsWith("Infinity");
        if (finiteNumber || type instanceof ArrowType.Bool) {
            line.append(text);
        }
        else {
            appendString(line, text);
        }
    }

    public static void appendString(StringBuilder line, String text)
    {
        line.append('"');
        for (int index = 0; index < text.length(); index++) {
            char character = text.charAt(index);
            switch (character) {
                case '"' -> line.append("\\\"");
                case '\\' -> line.append("\\\\");
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                case '\b' -> line.append("\\b");
                case '\f' -> line.append("\\f");
                default -> {
                    if (character < 0x20) {
                        line.append(String.format("\\u%04x", (int) character));
                    }
                    else {
                        line.append(character);
                    }
                }
            }
        }
        line.append('"');
    }
}
