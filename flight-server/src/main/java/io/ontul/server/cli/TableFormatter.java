package io.ontul.server.cli;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;

import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

import io.ontul.engine.api.QueryResult;

/**
 * Aligned columns as in psql and the Trino CLI: a centred header, a separator line, the rows
 * (numbers right-aligned, everything else left-aligned, SQL NULL as {@code NULL}) and a footer
 * {@code (N rows)}. Trailing blanks are trimmed from every line. Statements that change data print
 * {@code OK, N rows}. Results after the first are preceded by an empty line.
 * <p>
 * Column widths come from the first {@value #DEFAULT_ROWS_FOR_WIDTHS} rows, which are held back
 * until then; later rows are printed as they arrive and a longer value simply widens its line.
 */
public final class TableFormatter
        implements ResultFormatter
{
    static final int DEFAULT_ROWS_FOR_WIDTHS = 10_000;
    private static final String NULL_TEXT = "NULL";

    private final Writer output;
    private final int rowsForWidths;
    private boolean firstResult = true;

    public TableFormatter(Writer output)
    {
        this(output, DEFAULT_ROWS_FOR_WIDTHS);
    }

    public TableFormatter(Writer output, int rowsForWidths)
    {
        this.output = requireNonNull(output, "output is null");
        if (rowsForWidths < 1) {
            throw new IllegalArgumentException("rowsForWidths must be positive");
        }
        this.rowsForWidths = rowsForWidths;
    }

    @Override
    public void format(QueryResult result)
            throws IOException
    {
        if (!firstResult) {
            output.write("\n");
        }
        firstResult = false;
        if (result.isUpdate()) {
            formatUpdate(result);
        }
        else {
            formatRows(result);
        }
        output.flush();
    }

    @Override
    public void flush()
            throws IOException
    {
        output.flush();
    }

    private void formatUpdate(QueryResult result)
            throws IOException
    {
        long rows = 0;
        for (VectorSchemaRoot batch = result.nextBatch(); batch != null; batch = result.nextBatch()) {
            BaseIntVector counts = (BaseIntVector) batch.getVector(0);
            for (int row = 0; row < batch.getRowCount(); row++) {
                rows += counts.getValueAsLong(row);
            }
        }
        output.write("OK, " + rowCount(rows) + "\n");
    }

    private void formatRows(QueryResult result)
            throws IOException
    {
        List<Field> fields = result.schema().getFields();
        String[] header = new String[fields.size()];
        boolean[] rightAligned = new boolean[fields.size()];
        for (int column = 0; column < fields.size(); column++) {
            header[column] = fields.get(column).getName();
            rightAligned[column] = ValueRenderer.isNumber(fields.get(column).getType());
        }
        List<String[]> heldBack = new ArrayList<>();
        int[] widths = null;
        long rowCount = 0;
        for (VectorSchemaRoot batch = result.nextBatch(); batch != null; batch = result.nextBatch()) {
            List<FieldVector> vectors = batch.getFieldVectors();
            for (int row = 0; row < batch.getRowCount(); row++) {
                String[] cells = new String[vectors.size()];
                for (int column = 0; column < cells.length; column++) {
                    String text = ValueRenderer.render(vectors.get(column), row);
                    cells[column] = text == null ? NULL_TEXT : text;
                }
                rowCount++;
                if (widths != null) {
                    writeRow(cells, widths, rightAligned);
                    continue;
                }
                heldBack.add(cells);
                if (heldBack.size() == rowsForWidths) {
                    widths = writeHeaderAndRows(header, heldBack, rightAligned);
                    heldBack.clear();
                }
            }
            if (widths != null) {
                output.flush();
            }
        }
        if (widths == null) {
            writeHeaderAndRows(header, heldBack, rightAligned);
        }
        output.write("(" + rowCount(rowCount) + ")\n");
    }

    private int[] writeHeaderAndRows(String[] header, List<String[]> rows, boolean[] rightAligned)
            throws IOException
    {
        int[] widths = new int[header.length];
        for (int column = 0; column < header.length; column++) {
            widths[column] = width(header[column]);
            for (String[] row : rows) {
                widths[column] = Math.max(widths[column], width(row[column]));
            }
        }
        StringBuilder line = new StringBuilder();
        for (int column = 0; column < header.length; column++) {
            if (column > 0) {
                line.append('|');
            }
            int padding = widths[column] - width(header[column]);
            line.append(" ".repeat(1 + padding / 2)).append(header[column]).append(" ".repeat(padding - padding / 2 + 1));
        }
        writeLine(line);
        line.setLength(0);
        for (int column = 0; column < header.length; column++) {
            if (column > 0) {
                line.append('+');
            }
            line.append("-".repeat(widths[column] + 2));
        }
        writeLine(line);
        for (String[] row : rows) {
            writeRow(row, widths, rightAligned);
        }
        return widths;
    }

    private void writeRow(String[] cells, int[] widths, boolean[] rightAligned)
            throws IOException
    {
        StringBuilder line = new StringBuilder();
        for (int column = 0; column < cells.length; column++) {
            if (column > 0) {
                line.append('|');
            }
            String padding = " ".repeat(Math.max(0, widths[column] - width(cells[column])));
            line.append(' ');
            if (rightAligned[column]) {
                line.append(padding).append(cells[column]);
            }
            else {
                line.append(cells[column]).append(padding);
            }
            line.append(' ');
        }
        writeLine(line);
    }

    private void writeLine(StringBuilder line)
            throws IOException
    {
        int end = line.length();
        while (end > 0 && line.charAt(end - 1) == ' ') {
            end--;
        }
        output.append(line, 0, end).append('\n');
    }

    private static int width(String text)
    {
        return text.codePointCount(0, text.length());
    }

    private static String rowCount(long rows)
    {
        return rows == 1 ? "1 row" : rows + " rows";
    }
}
