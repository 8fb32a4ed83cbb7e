package io.ontul.server.cli;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.engine.api.QueryResult;

/**
 * CSV as in RFC 4180: a header line with the column names, then one line per row, lines ended by
 * CRLF. A field is quoted when it holds a comma, a double quote, CR or LF, with quotes doubled.
 * SQL NULL is an empty field and the empty string is {@code ""}, so the two stay apart.
 * Statements that change data print their one {@code rows} column like any result.
 */
public final class CsvFormatter
        implements ResultFormatter
{
    private static final String LINE_END = "\r\n";

    private final Writer output;

    public CsvFormatter(Writer output)
    {
        this.output = requireNonNull(output, "output is null");
    }

    @Override
    public void format(QueryResult result)
            throws IOException
    {
        List<Field> fields = result.schema().getFields();
        for (int column = 0; column < fields.size(); column++) {
            if (column > 0) {
                output.write(',');
            }
            output.write(quote(fields.get(column).getName()));
        }
        output.write(LINE_END);
        for (VectorSchemaRoot batch = result.nextBatch(); batch != null; batch = result.nextBatch()) {
            List<FieldVector> vectors = batch.getFieldVectors();
            for (int row = 0; row < batch.getRowCount(); row++) {
                for (int column = 0; column < vectors.size(); column++) {
                    if (column > 0) {
                        output.write(',');
                    }
                    String text = ValueRenderer.render(vectors.get(column), row);
                    if (text != null) {
                        output.write(quote(text));
                    }
                }
                output.write(LINE_END);
            }
            output.flush();
        }
        output.flush();
    }

    @Override
    public void flush()
            throws IOException
    {
        output.flush();
    }

    static String quote(String text)
    {
        if (!text.isEmpty() && text.chars().noneMatch(character -> character == ',' || character == '"' || character == '\r' || character == '\n')) {
            return text;
        }
        return '"' + text.replace("\"", "\"\"") + '"';
    }
}
