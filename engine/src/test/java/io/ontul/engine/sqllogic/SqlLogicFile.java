package io.ontul.engine.sqllogic;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.ontul.engine.sqllogic.SqlLogicCase.Kind;
import io.ontul.engine.sqllogic.SqlLogicCase.SortMode;

/**
 * A parsed {@code .slt} file: its cases in file order.
 * <p>
 * Records are separated by blank lines; lines starting with {@code #} between records are
 * comments. A record is a header line, the SQL (one or more lines) and, for queries, a
 * {@code ----} line followed by the expected rows up to the next blank line or the end of the
 * file:
 * <pre>
 * statement ok
 * CREATE TABLE memory.default.t1 (a INTEGER)
 *
 * statement error line 1:15: Table 'tpch.tiny.lineitm' does not exist
 * SELECT * FROM tpch.tiny.lineitm
 *
 * query IT rowsort
 * SELECT a, b FROM memory.default.t1
 * ----
 * 1 x
 * NULL (empty)
 * </pre>
 * See {@link TestSqlLogic} for how values are rendered and compared.
 */
public final class SqlLogicFile
{
    private static final String RESULT_SEPARATOR = "----";

    private final String name;
    private final List<SqlLogicCase> cases;

    public SqlLogicFile(String name, List<SqlLogicCase> cases)
    {
        this.name = requireNonNull(name, "name is null");
        this.cases = List.copyOf(requireNonNull(cases, "cases is null"));
    }

    public String name()
    {
        return name;
    }

    public List<SqlLogicCase> cases()
    {
        return cases;
    }

    /**
     * @throws IllegalArgumentException naming {@code name:line} when the text is not a valid
     * file
     */
    public static SqlLogicFile parse(String name, String text)
    {
        requireNonNull(name, "name is null");
        List<String> lines = text.lines().toList();
        List<SqlLogicCase> cases = new ArrayList<>();
        int index = 0;
        while (index < lines.size()) {
            String line = lines.get(index);
            if (line.isBlank() || line.startsWith("#")) {
                index++;
                continue;
            }
            int headerLine = index + 1;
            Header header = Header.parse(line, name, headerLine);
            index++;

            List<String> sql = new ArrayList<>();
            while (index < lines.size() && !lines.get(index).isBlank() && !lines.get(index).equals(RESULT_SEPARATOR)) {
                sql.add(lines.get(index));
                index++;
            }
            if (sql.isEmpty()) {
                throw malformed(name, headerLine, "record has no SQL");
            }

            List<String> rows = new ArrayList<>();
            boolean separator = index < lines.size() && lines.get(index).equals(RESULT_SEPARATOR);
            if (header.kind() == Kind.QUERY) {
                if (!separator) {
                    throw malformed(name, headerLine, "query has no '" + RESULT_SEPARATOR + "' line (an empty result is '" + RESULT_SEPARATOR + "' followed by a blank line)");
                }
                index++;
                while (index < lines.size() && !lines.get(index).isBlank()) {
                    rows.add(lines.get(index));
                    index++;
                }
            }
            else if (separator) {
                throw malformed(name, index + 1, "only 'query <types>' records have expected rows");
            }
            cases.add(new SqlLogicCase(name, headerLine, header.kind(), String.join("\n", sql), header.types(), header.sortMode(), rows, header.error()));
        }
        return new SqlLogicFile(name, cases);
    }

    private static IllegalArgumentException malformed(String file, int line, String message)
    {
        return new IllegalArgumentException(file + ":" + line + ": " + message);
    }

    private record Header(Kind kind, String types, SortMode sortMode, Optional<ExpectedError> error)
    {
        private static final String TYPE_LETTERS = "IRTBD";

        static Header parse(String line, String file, int lineNumber)
        {
            if (line.equals("statement ok")) {
                return new Header(Kind.STATEMENT, "", SortMode.NOSORT, Optional.empty());
            }
            for (String errorHeader : List.of("statement error ", "query error ")) {
                if (line.startsWith(errorHeader)) {
                    try {
                        ExpectedError error = ExpectedError.parse(line.substring(errorHeader.length()));
                        return new Header(Kind.ERROR, "", SortMode.NOSORT, Optional.of(error));
                    }
                    catch (IllegalArgumentException e) {
                        throw malformed(file, lineNumber, e.getMessage());
                    }
                }
            }
            String[] words = line.split(" ");
            if (words[0].equals("query") && (words.length == 2 || words.length == 3)) {
                String types = words[1];
                if (types.isEmpty() || !types.chars().allMatch(letter -> TYPE_LETTERS.indexOf(letter) >= 0)) {
                    throw malformed(file, lineNumber, "column types must be letters of " + TYPE_LETTERS + ": " + types);
                }
                SortMode sortMode = SortMode.NOSORT;
                if (words.length == 3) {
                    sortMode = switch (words[2]) {
                        case "rowsort" -> SortMode.ROWSORT;
                        case "nosort" -> SortMode.NOSORT;
                        default -> throw malformed(file, lineNumber, "unknown sort mode (rowsort or nosort): " + words[2]);
                    };
                }
                return new Header(Kind.QUERY, types, sortMode, Optional.empty());
            }
            throw malformed(file, lineNumber, "expected 'statement ok', 'statement error <message>', 'query <types> [rowsort|nosort]' or 'query error <message>': " + line);
        }
    }
}
