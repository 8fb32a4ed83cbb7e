package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The results of {@link FlightStreamBenchmark} as a plain-text table and as a markdown section
 * in the style of {@link BenchmarkReport}: facts, a table with one line per case, conclusions.
 */
public final class StreamReport
{
    private static final String[] HEADER = {
            "Case", "Rows", "Batches", "MB", "Median ms", "Min-max ms", "M rows/s", "MB/s", "First batch ms", "Throughput vs raw"};

    private final String title;
    private final List<String> facts;
    private final List<StreamMeasurement> cases;
    private final StreamMeasurement baseline;
    private final List<String> conclusions;

    /**
     * @param baseline the case the throughput of every case is compared with
     * @param conclusions lines printed below the table
     */
    public StreamReport(String title, List<String> facts, List<StreamMeasurement> cases, StreamMeasurement baseline, List<String> conclusions)
    {
        this.title = requireNonNull(title, "title is null");
        this.facts = List.copyOf(requireNonNull(facts, "facts is null"));
        this.cases = List.copyOf(requireNonNull(cases, "cases is null"));
        this.baseline = requireNonNull(baseline, "baseline is null");
        this.conclusions = List.copyOf(requireNonNull(conclusions, "conclusions is null"));
    }

    public String text()
    {
        List<String[]> rows = rows();
        int[] widths = new int[HEADER.length];
        for (String[] row : rows) {
            for (int column = 0; column < row.length; column++) {
                widths[column] = Math.max(widths[column], row[column].length());
            }
        }
        StringBuilder text = new StringBuilder(title).append(System.lineSeparator());
        facts.forEach(fact -> text.append("  ").append(fact).append(System.lineSeparator()));
        text.append(System.lineSeparator());
        for (int index = 0; index < rows.size(); index++) {
            String[] row = rows.get(index);
            StringBuilder line = new StringBuilder();
            for (int column = 0; column < row.length; column++) {
                line.append(String.format(column == 0 ? "%-" + widths[column] + "s" : "%" + widths[column] + "s", row[column])).append("  ");
            }
            text.append(line.toString().stripTrailing()).append(System.lineSeparator());
            if (index == 0) {
                text.append("-".repeat(line.toString().stripTrailing().length())).append(System.lineSeparator());
            }
        }
        text.append(System.lineSeparator());
        conclusions.forEach(conclusion -> text.append(conclusion).append(System.lineSeparator()));
        return text.toString();
    }

    public String markdown()
    {
        StringBuilder markdown = new StringBuilder("## ").append(title).append("\n\n");
        facts.forEach(fact -> markdown.append("- ").append(fact).append('\n'));
        markdown.append('\n');
        List<String[]> rows = rows();
        for (int index = 0; index < rows.size(); index++) {
            markdown.append('|');
            for (String cell : rows.get(index)) {
                markdown.append(' ').append(cell.replace("|", "\\|")).append(" |");
            }
            markdown.append('\n');
            if (index == 0) {
                markdown.append("| --- |").append(" ---: |".repeat(HEADER.length - 1)).append('\n');
            }
        }
        markdown.append('\n');
        conclusions.forEach(conclusion -> markdown.append(conclusion).append("\n\n"));
        return markdown.toString();
    }

    /** Appends the markdown section to {@code file}, creating it when absent. */
    public void appendTo(Path file)
            throws IOException
    {
        String existing = Files.exists(file) ? Files.readString(file) : "";
        String separator = existing.isEmpty() || existing.endsWith("\n\n") ? "" : existing.endsWith("\n") ? "\n" : "\n\n";
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, existing + separator + markdown());
    }

    private List<String[]> rows()
    {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (StreamMeasurement measurement : cases) {
            if (!measurement.timed()) {
                rows.add(new String[] {measurement.name(), "", "", "", "FAILED", "", "", "", "", ""});
                continue;
            }
            rows.add(new String[] {
                    measurement.name(),
                    String.valueOf(measurement.rows()),
                    String.valueOf(measurement.batches()),
                    format("%.0f", measurement.bytes() / 1e6),
                    format("%.0f", measurement.medianNanos() / 1e6),
                    format("%.0f-%.0f", measurement.minNanos() / 1e6, measurement.maxNanos() / 1e6),
                    format("%.2f", measurement.rowsPerSecond() / 1e6),
                    format("%.0f", measurement.bytesPerSecond() / 1e6),
                    format("%.1f", measurement.medianFirstBatchNanos() / 1e6),
                    baseline.timed() ? format("%.2f", (double) baseline.medianNanos() / measurement.medianNanos()) : ""});
        }
        return rows;
    }

    private static String format(String format, Object... arguments)
    {
        return String.format(Locale.ROOT, format, arguments);
    }
}
