package io.ontul.server.cli;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import io.ontul.engine.api.QueryResult;

/**
 * JSON Lines: one JSON object per row, keys in column order. Numbers (integers, DECIMAL, DOUBLE)
 * are JSON numbers, except NaN and infinities, which JSON cannot hold, as strings; BOOLEAN is
 * {@code true}/{@code false}; SQL NULL is {@code null}; dates, times, timestamps, text and binary
 * are strings with the text of {@link ValueRenderer}; ARRAY is an array and ROW an object (a MAP
 * is an array of {@code {"key":..,"value":..}} objects). Statements that change data print
 * {@code {"rows":N}}.
 */
public final class JsonLinesFormatter
        implements ResultFormatter
{
    private final Writer output;

    public JsonLinesFormatter(Writer output)
    {
        this.output = requireNonNull(output, "output is null");
    }

    @Override
    public void format(QueryResult result)
            throws IOException
    {
        StringBuilder line = new StringBuilder();
        for (VectorSchemaRoot batch = result.nextBatch(); batch != null; batch = result.nextBatch()) {
            List<FieldVector> vectors = batch.getFieldVectors();
            for (int row = 0; row < batch.getRowCount(); row++) {
                line.setLength(0);
                line.append('{');
                for (int column = 0; column < vectors.size(); column++) {
                    if (column > 0) {
                        line.append(',');
                    }
                    JsonValues.appendString(line, vectors.get(column).getName());
                    line.append(':');
                    JsonValues.appendValue(line, vectors.get(column), row);
                }
                line.append("}\n");
                output.append(line);
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
}
