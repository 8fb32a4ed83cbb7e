package io.ontul.bench;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/** The results of one benchmark run as a plain-text table and as a markdown section. */
public final class BenchmarkReport
{
    private static final int MAX_NOTE_LENGTH = 160;

    private final String title;
    private final List<String> facts;
    private final List<QueryMeasurement> queries;
    private final boolean checked;
    private final boolean comparable;

    /**
     * @param title the heading, e.g. "TPC-H sf1, 2025-01-01 12:00"
     * @param facts lines about the machine, the command and the setup steps, printed above the table
     */
    public BenchmarkReport(String title, List<String> facts, List<QueryMeasurement> queries, boolean checked)
    {
        this(title, facts, queries, checked, true);
    }

    /** @param comparable whether both engines return the same rows (see {@link Workload#resultsComparable()}) */
    public BenchmarkReport(String title, List<String> facts, List<QueryMeasurement> queries, boolean checked, boolean comparable)
    {
        this.comparable = comparable;
        this.title = requireNonNull(title, "title is null");
        this.facts = List.copyOf(requireNonNull(facts, "facts is null"));
        this.queries = List.copyOf(requireNonNull(queries, "queries is null"));
        this.checked = checked;
    }

    public String text()
    {
        List<String[]> rows = rows();
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int column = 0; column < row.length; column++) {
                widths[column] = Math.max(widths[column], row[column].length());
            }
        }
        List<String> lines = new ArrayList<>();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int column = 0; column < row.length; column++) {
                String format = column == 0 || column == row.length - 1 ? "%-" + widths[column] + "s" : "%" + widths[column] + "s";
                line.append(String.format(format, row[column])).append("  ");
            }
            lines.add(line.toString().stripTrailing());
        }
        String rule = "-".repeat(lines.stream().mapToInt(String::length).max().orElse(0));
        StringBuilder text = new StringBuilder(title).append(System.lineSeparator());
        facts.forEach(fact -> text.append("  ").append(fact).append(System.lineSeparator()));
        text.append(System.lineSeparator());
        for (int index = 0; index < lines.size(); index++) {
            if (index == 1 || index == lines.size() - 1) {
                text.append(rule).append(System.lineSeparator());
            }
            text.append(lines.get(index)).append(System.lineSeparator());
        }
        return text.toString();
    }

    public String markdown()
    {
        StringBuilder markdown = new StringBuilder("## ").append(title).append("\n\n");
        facts.forEach(fact -> markdown.append("- ").append(fact).append('\n'));
        markdown.append('\n');
        List<String[]> rows = rows();
        for (int index = 0; index < rows.size(); index++) {
            String[] row = rows.get(index);
            boolean total = index == rows.size() - 1;
            markdown.append('|');
            for (String cell : row) {
                String escaped = cell.replace("|", "\\|");
                markdown.append(' ').append(total && !cell.isEmpty() ? "**" + escaped + "**" : escaped).append(" |");
            }
            markdown.append('\n');
            if (index == 0) {
                markdown.append('|');
                for (int column = 0; column < row.length; column++) {
                    markdown.append(column == 0 || column == row.length - 1 ? " --- |" : " ---: |");
                }
                markdown.append('\n');
            }
        }
        return markdown.append('\n').toString();
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
        String rowsHeading = comparable ? "Rows" : "Rows (Ontul / DuckDB)";
        rows.add(checked
                ? new String[] {"Query", "Ontul ms", "DuckDB ms", "Ontul/DuckDB", rowsHeading, "Check", "Note"}
                : new String[] {"Query", "Ontul ms", "DuckDB ms", "Ontul/DuckDB", rowsHeading, "Note"});
        long ontulTotal = 0;
        long duckDbTotal = 0;
        double logRatios = 0;
        int timed = 0;
        for (QueryMeasurement query : queries) {
            OptionalLong ontul = query.ontul().bestNanos();
            OptionalLong duckDb = query.duckDb().bestNanos();
            if (query.bothTimed()) {
                ontulTotal += ontul.getAsLong();
                duckDbTotal += duckDb.getAsLong();
                logRatios += Math.log((double) ontul.getAsLong() / duckDb.getAsLong());
                timed++;
            }
            List<String> cells = new ArrayList<>(List.of(
                    query.name(),
                    ontul.isPresent() ? millis(ontul.getAsLong()) : "FAILED",
                    duckDb.isPresent() ? millis(duckDb.getAsLong()) : "FAILED",
                    query.bothTimed() ? ratio((double) ontul.getAsLong() / duckDb.getAsLong()) : "",
                    comparable ? rowCount(query) : rowCounts(query)));
            if (checked) {
                cells.add(query.check().map(BenchmarkReport::checkCell).orElse(""));
            }
            cells.add(note(query));
            rows.add(cells.toArray(String[]::new));
        }
        List<String> total = new ArrayList<>(List.of(
                String.format("Total (%d of %d)", timed, queries.size()),
                timed > 0 ? millis(ontulTotal) : "",
                timed > 0 ? millis(duckDbTotal) : "",
                timed > 0 ? ratio((double) ontulTotal / duckDbTotal) : "",
                ""));
        if (checked) {
            long ok = queries.stream().filter(query -> query.check().map("ok"::equals).orElse(false)).count();
            total.add(ok + " ok");
        }
        total.add(timed > 0 ? "geometric mean of ratios " + ratio(Math.exp(logRatios / timed)) : "");
        rows.add(total.toArray(String[]::new));
        return rows;
    }

    private static String rowCount(QueryMeasurement query)
    {
        long ontul = query.ontul().rows();
        long duckDb = query.duckDb().rows();
        if (ontul >= 0 && duckDb >= 0 && ontul != duckDb) {
            return ontul + " vs " + duckDb;
        }
        return String.valueOf(Math.max(ontul, duckDb) < 0 ? "" : Math.max(ontul, duckDb));
    }

    /** Both engines' row counts, for results that differ by nature (EXPLAIN texts). */
    private static String rowCounts(QueryMeasurement query)
    {
        return (query.ontul().rows() < 0 ? "-" : String.valueOf(query.ontul().rows())) + " / " + (query.duckDb().rows() < 0 ? "-" : String.valueOf(query.duckDb().rows()));
    }

    private String note(QueryMeasurement query)
    {
        List<String> notes = new ArrayList<>();
        query.ontul().failure().ifPresent(failure -> notes.add("Ontul: " + failure));
        query.duckDb().failure().ifPresent(failure -> notes.add("DuckDB: " + failure));
        if (comparable && query.ontul().rows() >= 0 && query.duckDb().rows() >= 0 && query.ontul().rows() != query.duckDb().rows()) {
            notes.add("row counts differ (Ontul vs DuckDB)");
        }
        query.check()
                .filter(check -> !check.equals("ok"))
                .filter(check -> !query.ontul().failed() && !query.duckDb().failed())
                .ifPresent(notes::add);
        return shorten(String.join("; ", notes));
    }

    private static String checkCell(String check)
    {
        if (check.equals("ok")) {
            return "ok";
        }
        return check.startsWith(QueryMeasurement.NOT_COMPARED) ? "-" : "MISMATCH";
    }

    private static String shorten(String text)
    {
        String oneLine = text.replaceAll("\\s+", " ").trim();
        return oneLine.length() <= MAX_NOTE_LENGTH ? oneLine : oneLine.substring(0, MAX_NOTE_LENGTH - 3) + "...";
    }

    private static String millis(long nanos)
    {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e6);
    }

    private static String ratio(double ratio)
    {
        return String.format(Locale.ROOT, "%.2f", ratio);
    }
}
