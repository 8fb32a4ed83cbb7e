package io.ontul.catalog.jdbc;

import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

import io.ontul.catalog.jdbc.dialect.JdbcDialect;
import io.ontul.catalog.jdbc.dialect.JdbcDialects;
import io.ontul.spi.Connector;
import io.ontul.spi.ConnectorContext;
import io.ontul.spi.ConnectorFactory;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * {@code connector.name=jdbc}: a database reached through its JDBC driver, PostgreSQL first,
 * MySQL and MariaDB through the same code, others with standard SQL. Creating the catalog does not
 * connect: a catalog whose database is down is created and fails at its first use, naming the
 * server. Properties: see {@link JdbcConfig}.
 */
public final class JdbcConnectorFactory
        implements ConnectorFactory
{
    @Override
    public String name()
    {
        return "jdbc";
    }

    @Override
    public Connector create(String catalogName, Map<String, String> config, ConnectorContext context)
    {
        JdbcConfig jdbcConfig = JdbcConfig.parse(catalogName, config);
        context.hostAccess().checkJdbcDriver(catalogName, JdbcConfig.CONNECTION_URL, jdbcConfig.url().subprotocol());
        context.hostAccess().checkJdbcFiles(catalogName, JdbcConfig.CONNECTION_URL, jdbcConfig.url().url());
        JdbcDialect dialect = JdbcDialects.forSubprotocol(jdbcConfig.url().subprotocol());
        if (dialect.driverClassName().isEmpty()) {
            try {
                DriverManager.getDriver(jdbcConfig.url().url());
            }
            catch (SQLException e) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': no JDBC driver for '%s' URLs is installed; put the driver's jar on the server's class path",
                        catalogName, "jdbc:" + jdbcConfig.url().subprotocol());
            }
        }
        return new JdbcConnector(jdbcConfig, dialect);
    }
}
