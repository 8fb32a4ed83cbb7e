package io.ontul.engine.sqllogic;

import static java.util.Objects.requireNonNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import io.ontul.engine.api.Engine;
import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.Session;

/**
 * SQL behaviour as data: every {@code src/test/resources/sqllogic/*.slt} file (format in
 * {@link SqlLogicFile}) becomes one container of dynamic tests, one per record, run in file order
 * in one fresh {@link Session} of an engine created for that file. Files are independent: each
 * creates and drops its own {@code memory} tables under names unique to the file. A failing case
 * does not stop its file; the next case runs in the same session. The last test of each file
 * closes the engine, which fails if a query leaked Arrow memory.
 * <p>
 * Run one file with {@code -Dsqllogic.files=joins.slt} (comma-separated names).
 *
 * <h2>Comparing rows</h2>
 * Each actual row is rendered as its values joined by single spaces and compared as a whole line
 * to the expected line, so text values may contain spaces (tests keep them unambiguous, e.g.
 * by putting such text in the last column). The header's type letters (I integer, R floating or
 * decimal, T text, B boolean, D date/time) document the columns; their count must equal the
 * result's column count. {@code rowsort} sorts actual and expected lines as strings before
 * comparing; {@code nosort} (the default) compares in order.
 *
 * <h2>Rendering values</h2>
 * <ul>
 * <li>NULL as {@code NULL}; the empty string as {@code (empty)}; booleans {@code true}/{@code false}.
 * <li>Integers in decimal. DECIMAL with its scale, never in scientific notation ({@code 1.50},
 * {@code 3.00}).
 * <li>REAL/DOUBLE rounded to 12 significant digits with trailing zeros stripped, in plain
 * notation: {@code 1.5}, {@code 3} (for 3.0), {@code 0.333333333333}; so values that differ only
 * by floating-point noise compare equal.
 * <li>DATE {@code yyyy-MM-dd}; TIMESTAMP {@code yyyy-MM-dd HH:mm:ss} followed by as many fraction
 * digits as its Arrow unit holds ({@code .SSS} for milliseconds, 6 digits for microseconds); TIME
 * {@code HH:mm:ss}, with a fraction only when it is not zero. Times are rendered as UTC wall-clock
 * values.
 * <li>Anything else by its Arrow {@code getObject(...).toString()}.
 * </ul>
 *
 * <h2>Errors</h2>
 * {@code statement error <message>} (or {@code query error}) passes when execution or reading
 * the rows throws an {@link io.ontul.spi.OntulException} whose message equals {@code message},
 * or starts with it when {@code message} ends with {@code ...}. {@code statement error
 * USER_ERROR: <message>} also checks {@link io.ontul.spi.OntulException#category()}. Any other
 * exception type fails the case.
 */
public class TestSqlLogic
{
    private static final String RESOURCE_DIRECTORY = "sqllogic";
    private static final String FILE_FILTER_PROPERTY = "sqllogic.files";
    private static final Duration CASE_TIMEOUT = Duration.ofMinutes(3);

    @TestFactory
    Stream<DynamicContainer> sqlLogic()
    {
        return listFiles().stream().map(TestSqlLogic::container);
    }

    private static DynamicContainer container(Path path)
    {
        SqlLogicFile file = parse(path);
        FileRun run = new FileRun();
        Stream<DynamicTest> cases = file.cases().stream().map(testCase -> dynamicTest(
                testCase.displayName(),
                URI.create(path.toUri() + "?line=" + testCase.line()),
                () -> assertTimeoutPreemptively(CASE_TIMEOUT, () -> run.executor().run(testCase), testCase.location() + " did not finish in " + CASE_TIMEOUT)));
        DynamicTest close = dynamicTest(file.name() + ": close the engine (no leaked memory)", run::close);
        return dynamicContainer(file.name(), path.toUri(), Stream.concat(cases, Stream.of(close)));
    }

    private static SqlLogicFile parse(Path path)
    {
        try {
            return SqlLogicFile.parse(path.getFileName().toString(), Files.readString(path));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> listFiles()
    {
        URL directory = TestSqlLogic.class.getClassLoader().getResource(RESOURCE_DIRECTORY);
        requireNonNull(directory, "no " + RESOURCE_DIRECTORY + " directory on the test classpath");
        String filter = System.getProperty(FILE_FILTER_PROPERTY, "");
        Set<String> wanted = Arrays.stream(filter.split(",")).map(String::trim).filter(name -> !name.isEmpty()).collect(Collectors.toSet());
        try (Stream<Path> files = Files.list(Path.of(directory.toURI()))) {
            List<Path> selected = files
                    .filter(file -> file.getFileName().toString().endsWith(".slt"))
                    .filter(file -> wanted.isEmpty() || wanted.contains(file.getFileName().toString()))
                    .sorted()
                    .toList();
            if (selected.isEmpty()) {
                throw new IllegalStateException("no .slt files in " + directory + (wanted.isEmpty() ? "" : " matching " + wanted));
            }
            return selected;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The engine and session of one file, created by its first case. */
    private static final class FileRun
    {
        private Engine engine;
        private SqlLogicExecutor executor;

        synchronized SqlLogicExecutor executor()
        {
            if (executor == null) {
                // two workers whatever the machine: cases under a small memory limit hold a batch or two per worker
                engine = Engine.create(EngineConfig.embeddedDefaults().withProperty(EngineConfig.TASK_CONCURRENCY, "2"));
                executor = new SqlLogicExecutor(engine.createSession("test"));
            }
            return executor;
        }

        synchronized void close()
        {
            if (engine != null) {
                Engine closing = engine;
                engine = null;
                executor = null;
                closing.close();
            }
        }
    }
}
