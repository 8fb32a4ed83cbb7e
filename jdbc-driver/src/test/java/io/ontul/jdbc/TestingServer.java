package io.ontul.jdbc;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

import io.ontul.engine.api.EngineConfig;
import io.ontul.server.OntulServer;

/** A real Ontul server in this JVM on 127.0.0.1 and a free port, with user admin's password set. */
final class TestingServer
        implements AutoCloseable
{
    static final String PASSWORD = "jdbc-test-password";

    private final Path dataDirectory;
    private final OntulServer server;

    TestingServer()
            throws IOException
    {
        dataDirectory = Files.createTempDirectory("ontul-jdbc-test");
        // the cancel tests poll system.runtime.queries every 50 ms: a history of 100 would forget the
        // statement they watch after five seconds of polling, and a late state would read as none
        server = OntulServer.start(EngineConfig.embeddedDefaults().withProperty("ontul.query.max-history", "100000"), dataDirectory, Optional.of(0), Optional.of(PASSWORD), new PrintStream(OutputStream.nullOutputStream()));
    }

    int port()
    {
        return server.port();
    }

    /** jdbc:ontul://127.0.0.1:PORT with the given path and query (each may be empty). */
    String url(String pathAndQuery)
    {
        return "jdbc:ontul://127.0.0.1:" + port() + pathAndQuery;
    }

    /** The URL with user admin and the right password as parameters. */
    String urlWithCredentials()
    {
        return url("?user=admin&password=" + PASSWORD);
    }

    String arrowUrl()
    {
        return "jdbc:arrow-flight-sql://127.0.0.1:" + port() + "/?useEncryption=false&user=admin&password=" + PASSWORD;
    }

    @Override
    public void close()
    {
        server.close();
        try (Stream<Path> files = Files.walk(dataDirectory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
