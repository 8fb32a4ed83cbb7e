package io.ontul.catalog.jdbc;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.SQLException;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool.PoolInitializationException;

import io.ontul.catalog.jdbc.dialect.JdbcDialect;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The catalog's HikariCP pool, started at the first use so that a catalog whose database is down
 * can be created (and the server start); until the pool starts, each use tries once to connect
 * and fails with the reason. The password is given to HikariCP as its password, which its
 * configuration log masks, never in the URL.
 */
final class JdbcConnectionPool
        implements AutoCloseable
{
    private final JdbcConfig config;
    private final JdbcDialect dialect;
    private final JdbcErrors errors;
    private HikariDataSource dataSource;
    private boolean closed;

    JdbcConnectionPool(JdbcConfig config, JdbcDialect dialect, JdbcErrors errors)
    {
        this.config = requireNonNull(config, "config is null");
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.errors = requireNonNull(errors, "errors is null");
    }

    /**
     * A connection in autocommit mode; the caller closes it to return it to the pool.
     *
     * @throws OntulException EXTERNAL_ERROR naming the server and the cause
     */
    Connection connection()
    {
        try {
            return dataSource().getConnection();
        }
        catch (SQLException e) {
            throw errors.connectionFailure(e);
        }
    }

    private synchronized HikariDataSource dataSource()
    {
        if (closed) {
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, "Catalog '" + config.catalogName() + "' is closed");
        }
        if (dataSource == null) {
            try {
                dataSource = new HikariDataSource(hikariConfig());
            }
            catch (PoolInitializationException e) {
                throw errors.connectionFailure(e.getCause() == null ? e : e.getCause());
            }
            catch (RuntimeException e) {
                throw new OntulException(ErrorCode.EXTERNAL_ERROR, errors.scrub("Cannot start the connection pool of catalog '%s' for %s: %s".formatted(
                        config.catalogName(), errors.server(), e.getMessage())), e);
            }
        }
        return dataSource;
    }

    private HikariConfig hikariConfig()
    {
        HikariConfig hikari = new HikariConfig();
        hikari.setPoolName("ontul-jdbc-" + config.catalogName());
        hikari.setJdbcUrl(config.url().url());
        dialect.driverClassName().ifPresent(hikari::setDriverClassName);
        config.user().ifPresent(hikari::setUsername);
        config.password().ifPresent(hikari::setPassword);
        dialect.driverProperties().forEach(hikari::addDataSourceProperty);
        hikari.setMaximumPoolSize(config.poolMaxSize());
        // no connections kept while idle, and none opened in the background while the database is down
        hikari.setMinimumIdle(0);
        hikari.setConnectionTimeout(config.connectionTimeout().toMillis());
        // one attempt when the pool starts: the first use fails at once with the reason
        hikari.setInitializationFailTimeout(1);
        return hikari;
    }

    @Override
    public synchronized void close()
    {
        closed = true;
        if (dataSource != null) {
            dataSource.close();
            dataSource = null;
        }
    }

    @Override
    public String toString()
    {
        return "JdbcConnectionPool{catalog=" + config.catalogName() + ", url=" + config.url() + "}";
    }
}
