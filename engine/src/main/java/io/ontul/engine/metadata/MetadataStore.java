package io.ontul.engine.metadata;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.ontul.engine.api.EngineConfig;
import io.ontul.spi.ConnectorStore;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Where Ontul keeps what users create: runtime catalogs ({@code CREATE CATALOG}), the entries
 * connectors keep (Kafka table definitions), the server's users; later streaming jobs.
 * <p>
 * A transactional SQL database behind a HikariCP pool: by default an embedded H2 database under
 * the data directory ({@code <data-dir>/metadata/}, owner-only), or the database named by
 * {@value #URL} (PostgreSQL, so that the servers of a cluster share it); in memory when there is
 * neither (an engine in a test). Its schema is versioned and brought up to date by
 * {@link SchemaMigrations} when the store opens. Thread-safe.
 */
public final class MetadataStore
        implements AutoCloseable
{
    public static final String URL = "ontul.metadata.url";
    public static final String USER = "ontul.metadata.user";
    public static final String PASSWORD = "ontul.metadata.password";
    public static final String POOL_SIZE = "ontul.metadata.pool.max-size";
    public static final String DATA_DIR = "ontul.data-dir";

    /**
     * The embedded H2 database's file system: H2's asynchronous file channel, which an interrupt
     * does not close. With plain file channels ({@code jdbc:h2:file:}), a thread interrupted while
     * it wrote to the store (a cancelled statement, a streaming job's thread stopped at shutdown)
     * closed the channel and with it the database: every later statement failed with "The
     * database has been closed" until the server restarted.
     */
    static final String EMBEDDED_PREFIX = "jdbc:h2:async:";

    /**
     * The embedded H2 database's options. WRITE_DELAY=0: a commit is written when it returns (H2's
     * default writes up to 500 ms later), so a server killed right after START STREAMING JOB,
     * CREATE VIEW or GRANT keeps them. REUSE_SPACE=FALSE: new chunks only go at the end of the
     * file. When H2 reuses the space of freed chunks (those older than its 45 s retention time), a
     * process killed at the wrong moment came back with the database of several commits earlier,
     * across several kills: in 120 kill cycles of a process that commits then waits, 2 to 6
     * acknowledged commits were lost, up to 38 at once (a streaming job came back in the STOPPED
     * state it had before its last START that way); 0 in 420 cycles with this option. The file
     * then grows with every commit until {@link #close} compacts it (SHUTDOWN COMPACT).
     */
    static final String EMBEDDED_OPTIONS = ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0;REUSE_SPACE=FALSE";

    private static final Logger log = LoggerFactory.getLogger(MetadataStore.class);
    /** SQLSTATE of a unique-key violation, in H2 and PostgreSQL alike. */
    private static final String UNIQUE_VIOLATION = "23505";

    private final HikariDataSource dataSource;
    private final String location;
    private final boolean embeddedFile;

    private MetadataStore(HikariDataSource dataSource, String location)
    {
        this.dataSource = requireNonNull(dataSource, "dataSource is null");
        this.location = requireNonNull(location, "location is null");
        this.embeddedFile = isH2File(location);
    }

    /**
     * Opens the store the configuration names ({@value #URL}, else H2 under {@value #DATA_DIR},
     * else in memory) and migrates its schema.
     *
     * @throws OntulException EXTERNAL_ERROR if the database cannot be reached or is in use by
     *         another process
     */
    public static MetadataStore open(EngineConfig config)
    {
        String url = config.property(URL, null);
        String dataDir = config.property(DATA_DIR, null);
        if (url == null && dataDir != null) {
            Path directory = Path.of(dataDir).resolve("metadata");
            createOwnerOnly(directory);
            url = EMBEDDED_PREFIX + directory.toAbsolutePath().resolve("ontul") + EMBEDDED_OPTIONS;
        }
        if (url == null) {
            return inMemory();
        }
        int poolSize = Integer.parseInt(config.property(POOL_SIZE, "4"));
        try {
            return open(url, config.property(USER, null), config.property(PASSWORD, null), poolSize);
        }
        catch (RuntimeException e) {
            // H2 2.5 may fail its first write after the process was killed while it closed the
            // file; the failed attempt finishes its recovery and a second open works
            if (!isH2File(url) || !isStorageFailure(e)) {
                throw e;
            }
            log.warn("The metadata store at {} failed to open after an unclean stop ({}); opening it again", url.replaceAll("[?;].*$", ""), rootMessage(e));
            return open(url, config.property(USER, null), config.property(PASSWORD, null), poolSize);
        }
    }

    /** A store that lives as long as this object: for engines without a data directory. */
    public static MetadataStore inMemory()
    {
        return open("jdbc:h2:mem:ontul-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", null, null, 2);
    }

    private static MetadataStore open(String url, String user, String password, int poolSize)
    {
        HikariConfig hikari = new HikariConfig();
        hikari.setPoolName("ontul-metadata");
        hikari.setJdbcUrl(url);
        hikari.setUsername(user);
        hikari.setPassword(password);
        hikari.setMaximumPoolSize(poolSize);
        hikari.setMinimumIdle(1);
        hikari.setConnectionTimeout(10_000);
        hikari.setInitializationFailTimeout(1);
        // options after ? or ; may hold a password: messages show the URL without them
        String location = url.startsWith("jdbc:h2:mem:") ? "in memory" : url.replaceAll("[?;].*$", "");
        HikariDataSource dataSource;
        try {
            dataSource = new HikariDataSource(hikari);
        }
        catch (RuntimeException e) {
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, "Cannot open the metadata store at " + location + ": " + rootMessage(e), e);
        }
        MetadataStore store = new MetadataStore(dataSource, location);
        try {
            int version = new SchemaMigrations(store).migrate();
            log.info("Metadata store {} at schema version {}", location, version);
            return store;
        }
        catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** Runtime catalogs, their properties in plain JSON (encrypted ones cannot be read). */
    public StoredCatalogs catalogs()
    {
        return catalogs(CatalogSecrets.plaintext());
    }

    /** Runtime catalogs, their properties sealed and opened with {@code secrets}. */
    public StoredCatalogs catalogs(CatalogSecrets secrets)
    {
        return new StoredCatalogs(this, secrets);
    }

    /** The entries of one catalog's connector. */
    public ConnectorStore connectorStore(String catalog)
    {
        return new StoredConnectorEntries(this, catalog);
    }

    /** Streaming job definitions and the state each should resume in. */
    public StoredStreamingJobs streamingJobs()
    {
        return new StoredStreamingJobs(this);
    }

    /** The views Ontul keeps for its catalogs. */
    public StoredViews views()
    {
        return new StoredViews(this);
    }

    /** The server's users and their password hashes. */
    public StoredUsers users()
    {
        return new StoredUsers(this);
    }

    /** Roles, role members and granted privileges. */
    public StoredGrants grants()
    {
        return new StoredGrants(this);
    }

    /** The version of the store's schema: the number of migrations applied. */
    public int schemaVersion()
    {
        return new SchemaMigrations(this).currentVersion();
    }

    /** Where the store is, for messages: the JDBC URL or {@code in memory}. */
    public String location()
    {
        return location;
    }

    /** Work done on one connection in one transaction. */
    @FunctionalInterface
    interface TransactionWork<T>
    {
        T run(Connection connection)
                throws SQLException;
    }

    /** Runs {@code work} in one transaction: committed if it returns, rolled back if it throws. */
    <T> T inTransaction(TransactionWork<T> work)
    {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            }
            catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
        catch (SQLException e) {
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, "Metadata store " + location + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Runs an insert-unless-present in one transaction; when another server sharing the store
     * inserted the same key between the check and the insert (a unique-key violation), the answer
     * is false, as if the check had seen it.
     */
    boolean insertUnlessPresent(TransactionWork<Boolean> work)
    {
        try {
            return inTransaction(work);
        }
        catch (OntulException e) {
            if (e.getCause() instanceof SQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState())) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public void close()
    {
        if (embeddedFile) {
            // the file only grows while the server runs (EMBEDDED_OPTIONS): rewritten with its live data only
            Connection connection = null;
            try {
                connection = dataSource.getConnection();
                connection.createStatement().execute("SHUTDOWN COMPACT");
            }
            catch (SQLException | RuntimeException e) {
                log.warn("Could not compact the metadata store at {}: {}", location, rootMessage(e));
            }
            finally {
                // the database is shut down under the connection: returning it to the pool fails ("already closed")
                closeQuietly(connection);
            }
        }
        dataSource.close();
    }

    private static void closeQuietly(Connection connection)
    {
        if (connection != null) {
            try {
                connection.close();
            }
            catch (SQLException | RuntimeException ignored) {
                // closed with the database
            }
        }
    }

    private static void createOwnerOnly(Path directory)
    {
        try {
            Files.createDirectories(directory);
            try {
                Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
            }
            catch (UnsupportedOperationException ignored) {
                // not a POSIX file system: the directory keeps its default permissions
            }
        }
        catch (IOException e) {
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, "Cannot create the metadata directory " + directory + ": " + e.getMessage(), e);
        }
    }

    /** Whether the URL names an H2 database in a file of this process (not in memory, not an H2 server). */
    private static boolean isH2File(String url)
    {
        return url.startsWith("jdbc:h2:file:") || url.startsWith("jdbc:h2:async:") || url.startsWith("jdbc:h2:retry:");
    }

    /** Whether H2's storage layer (MVStore) failed somewhere in the chain of causes. */
    private static boolean isStorageFailure(Throwable e)
    {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause.getClass().getName().equals("org.h2.mvstore.MVStoreException") || String.valueOf(cause.getMessage()).contains("MVStoreException")) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e)
    {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getMessage();
    }
}
