package io.ontul.catalog.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

import io.ontul.catalog.jdbc.dialect.GenericDialect;
import io.ontul.catalog.jdbc.dialect.JdbcDialects;
import io.ontul.catalog.jdbc.dialect.MySqlDialect;
import io.ontul.catalog.jdbc.dialect.PostgreSqlDialect;
import io.ontul.catalog.jdbc.query.LikePatterns;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Catalog properties, URLs and LIKE patterns, without a database.
 */
class TestJdbcConfig
{
    private static final String URL = "jdbc:postgresql://db.example.com:6543/sales";

    @Test
    void parsesPropertiesWithDefaults()
    {
        JdbcConfig config = JdbcConfig.parse("pg", Map.of("connection-url", URL, "connection-user", "bob", "connection-password", "s3cret-value"));
        assertThat(config.url().url()).isEqualTo(URL);
        assertThat(config.user()).contains("bob");
        assertThat(config.password()).contains("s3cret-value");
        assertThat(config.poolMaxSize()).isEqualTo(8);
        assertThat(config.connectionTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.fetchSize()).isEqualTo(10_000);
        assertThat(config.splitCount(16)).isEqualTo(4);
        assertThat(config.splitColumn("public", "orders")).isEmpty();
        assertThat(config.aggregatePushdown()).isTrue();
        assertThat(config.toString()).contains("password=****").doesNotContain("s3cret-value");

        JdbcConfig tuned = JdbcConfig.parse("pg", Map.of("connection-url", URL, "connection-pool.max-size", "20", "connection-pool.connection-timeout", "1500ms",
                "read.splits", "6", "read.split-column.Public.Orders", "o_orderkey", "read.fetch-size", "500", "write.batch-size", "200",
                "read.aggregate-pushdown", "False"));
        assertThat(tuned.poolMaxSize()).isEqualTo(20);
        assertThat(tuned.connectionTimeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(tuned.splitCount(2)).isEqualTo(6);
        assertThat(tuned.splitColumn("public", "orders")).contains("o_orderkey");
        assertThat(tuned.fetchSize()).isEqualTo(500);
        assertThat(tuned.writeBatchSize()).isEqualTo(200);
        assertThat(tuned.aggregatePushdown()).isFalse();
    }

    @Test
    void rejectsUnknownMissingAndBadProperties()
    {
        assertInvalid(Map.of("connection-url", URL, "connection-pasword", "x"),
                "Catalog 'pg': unknown property 'connection-pasword' (the jdbc connector takes connection-password, connection-pool.connection-timeout, "
                        + "connection-pool.max-size, connection-url, connection-user, read.aggregate-pushdown, read.fetch-size, read.splits, stream.marker-schema, write.batch-size, "
                        + "read.split-column.<schema>.<table>)");
        assertInvalid(Map.of("connection-user", "bob"), "Catalog 'pg': property 'connection-url' is required");
        assertInvalid(Map.of("connection-url", "postgresql://host/db"), "Catalog 'pg': property 'connection-url' must be a JDBC URL such as jdbc:postgresql://host:5432/database");
        assertInvalid(Map.of("connection-url", URL, "connection-pool.max-size", "0"), "Catalog 'pg': property 'connection-pool.max-size' must be a whole number from 1 to 1000, not '0'");
        assertInvalid(Map.of("connection-url", URL, "connection-pool.connection-timeout", "soon"),
                "Catalog 'pg': property 'connection-pool.connection-timeout' must be a duration of at least 250ms such as 10s or 500ms, not 'soon'");
        assertInvalid(Map.of("connection-url", URL, "read.aggregate-pushdown", "yes"), "Catalog 'pg': property 'read.aggregate-pushdown' must be true or false, not 'yes'");
        assertInvalid(Map.of("connection-url", URL, "read.split-column.orders", "id"),
                "Catalog 'pg': property 'read.split-column.orders' must be written read.split-column.<schema>.<table>=<numeric column>");
        assertInvalid(Map.of("connection-url", "jdbc:mysql://bob:pw@host/db"), "Catalog 'pg': property 'connection-url' must not hold a password: put it in 'connection-password'");
        assertInvalid(Map.of("connection-url", URL + "?password=abc", "connection-password", "abc"),
                "Catalog 'pg': property 'connection-url' has a password parameter and 'connection-password' is set too: keep only 'connection-password'");
    }

    @Test
    void takesThePasswordOutOfTheUrl()
    {
        JdbcConfig config = JdbcConfig.parse("pg", Map.of("connection-url", URL + "?ssl=false&password=p%40ss&ApplicationName=x"));
        assertThat(config.url().url()).isEqualTo(URL + "?ssl=false&ApplicationName=x");
        assertThat(config.password()).contains("p@ss");
        assertThat(config.toString()).doesNotContain("p@ss").doesNotContain("p%40ss");
    }

    @Test
    void findsTheServerAddressForMessages()
    {
        assertThat(JdbcUrl.parse("pg", "url", URL).serverAddress(5432)).contains("db.example.com:6543");
        assertThat(JdbcUrl.parse("pg", "url", "jdbc:postgresql://db/sales").serverAddress(5432)).contains("db:5432");
        assertThat(JdbcUrl.parse("pg", "url", "jdbc:postgresql://h1:1,h2/sales?x=1").serverAddress(5432)).contains("h1:1,h2:5432");
        assertThat(JdbcUrl.parse("pg", "url", "jdbc:postgresql://[::1]/sales").serverAddress(5432)).contains("[::1]:5432");
        assertThat(JdbcUrl.parse("pg", "url", "jdbc:postgresql:sales").serverAddress(5432)).contains("localhost:5432");
        assertThat(JdbcUrl.parse("pg", "url", "jdbc:mysql://bob@mysql.local/shop").serverAddress(3306)).contains("mysql.local:3306");
        assertThat(JdbcUrl.parse("pg", "url", "jdbc:sqlserver://sql.local:1433;databaseName=x").serverAddress(0)).contains("sql.local:1433");
        assertThat(JdbcUrl.parse("pg", "url", "jdbc:oracle:thin:@ora.local:1521/service").serverAddress(0)).contains("ora.local:1521");
    }

    @Test
    void choosesTheDialectFromTheUrl()
    {
        assertThat(JdbcDialects.forSubprotocol("postgresql")).isInstanceOf(PostgreSqlDialect.class);
        assertThat(JdbcDialects.forSubprotocol("mysql").name()).isEqualTo("MySQL");
        assertThat(JdbcDialects.forSubprotocol("mariadb")).isInstanceOf(MySqlDialect.class);
        assertThat(JdbcDialects.forSubprotocol("h2")).isInstanceOf(GenericDialect.class);
        assertThat(new MySqlDialect(false).quote("a`b")).isEqualTo("`a``b`");
        assertThat(new PostgreSqlDialect().quote("a\"b")).isEqualTo("\"a\"\"b\"");
    }

    @Test
    void refusesUrlsWithoutADriver()
    {
        try (RootAllocator allocator = new RootAllocator()) {
            Map<String, String> properties = new HashMap<>();
            properties.put("connection-url", "jdbc:nosuchdb://host/db");
            TestingConnectorContext allowingIt = new TestingConnectorContext(allocator, 4, new io.ontul.spi.InMemoryConnectorStore(), io.ontul.spi.HostAccessPolicy.of("postgresql,nosuchdb"));
            assertThatThrownBy(() -> new JdbcConnectorFactory().create("pg", properties, allowingIt))
                    .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessage("Catalog 'pg': no JDBC driver for 'jdbc:nosuchdb' URLs is installed; put the driver's jar on the server's class path");
        }
    }

    /** Issue 23: a catalog definition must not run code or read files on the server's host. */
    @Test
    void refusesDriversTheServerDoesNotAllowAndParametersThatReachTheHost()
    {
        try (RootAllocator allocator = new RootAllocator()) {
            for (String url : java.util.List.of("jdbc:h2:mem:p;INIT=RUNSCRIPT FROM '/tmp/x.sql'", "jdbc:h2:/etc/hosts", "jdbc:sqlite:/etc/hosts", "jdbc:derby:memory:x;create=true")) {
                String subprotocol = url.substring(5, url.indexOf(':', 5));
                assertThatThrownBy(() -> JdbcTesting.createConnector(new HashMap<>(Map.of("connection-url", url)), allocator))
                        .as(url)
                        .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                        .hasMessageFindingMatch("Catalog 'pg': (property 'connection-url' uses JDBC driver 'jdbc:" + subprotocol
                                + "', which this server does not allow \\(allowed: mariadb, mysql, postgresql; an operator may change ontul.security.jdbc.allowed-drivers in conf/ontul.properties\\)"
                                + "|property 'connection-url' must not set parameter 'INIT'.*)");
            }
            // even where the operator allows H2, its script parameters stay refused
            TestingConnectorContext allowingH2 = new TestingConnectorContext(allocator, 4, new io.ontul.spi.InMemoryConnectorStore(), io.ontul.spi.HostAccessPolicy.of("h2"));
            assertThatThrownBy(() -> new JdbcConnectorFactory().create("pg", Map.of("connection-url", "jdbc:h2:mem:p;INIT=RUNSCRIPT FROM '/tmp/x.sql'"), allowingH2))
                    .hasMessage("Catalog 'pg': property 'connection-url' must not set parameter 'INIT': it loads classes, runs scripts or opens files on the server's host");
            for (String parameter : java.util.List.of("socketFactory=org.example.Evil", "sslfactory=org.example.Evil", "loggerFile=/tmp/log", "authenticationPluginClassName=x")) {
                assertInvalid(Map.of("connection-url", URL + "?ssl=true&" + parameter),
                        "Catalog 'pg': property 'connection-url' must not set parameter '" + parameter.substring(0, parameter.indexOf('=')) + "': it loads classes, runs scripts or opens files on the server's host");
            }
            assertInvalid(Map.of("connection-url", "jdbc:mysql://db.local/shop?allowLoadLocalInfile=true"),
                    "Catalog 'pg': property 'connection-url' must not set parameter 'allowLoadLocalInfile': it loads classes, runs scripts or opens files on the server's host");
            assertInvalid(Map.of("connection-url", "jdbc:mysql://db.local/shop?autoDeserialize=true"),
                    "Catalog 'pg': property 'connection-url' must not set parameter 'autoDeserialize': it loads classes, runs scripts or opens files on the server's host");
            // the allowed drivers with ordinary parameters still work
            assertThat(JdbcConfig.parse("pg", Map.of("connection-url", URL + "?ssl=true&sslmode=require&ApplicationName=ontul")).url().subprotocol()).isEqualTo("postgresql");
        }
    }

    @Test
    void rewritesLikePatternsToOneEscape()
    {
        assertThat(LikePatterns.withStandardEscape("a%b_c", Optional.empty())).contains("a%b_c");
        assertThat(LikePatterns.withStandardEscape("50!%\\", Optional.empty())).contains("50!!%\\");
        assertThat(LikePatterns.withStandardEscape("a#%b#_c##", Optional.of("#"))).contains("a!%b!_c#");
        assertThat(LikePatterns.withStandardEscape("a!%", Optional.of("!"))).contains("a!%");
        assertThat(LikePatterns.withStandardEscape("a#", Optional.of("#"))).isEmpty();
        assertThat(LikePatterns.withStandardEscape("a#b", Optional.of("#"))).isEmpty();
        assertThat(LikePatterns.withStandardEscape("a", Optional.of("##"))).isEmpty();
    }

    private static void assertInvalid(Map<String, String> properties, String message)
    {
        assertThatThrownBy(() -> JdbcConfig.parse("pg", properties))
                .isInstanceOfSatisfying(OntulException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage(message);
    }
}
