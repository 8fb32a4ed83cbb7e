package io.ontul.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The JDBC driver for {@code jdbc:ontul://host[:port][/catalog[/schema]][?user=...&password=...&tls=true]}
 * (see {@link OntulUrl}). It connects with Apache Arrow's Flight SQL JDBC driver, bundled in the
 * same jar, and hands out wrappers that correct what that driver (18.3.0) gets wrong against
 * Ontul: columns of empty results, DATE/TIME/TIMESTAMP values in non-UTC time zones, temporal
 * parameters, error SQLStates, and the {@code java.nio} access Arrow needs on Java 17+.
 */
public final class OntulDriver
        implements Driver
{
    static final String NAME = "Ontul JDBC Driver";
    static final String VERSION = loadVersion();
    static final int MAJOR_VERSION = versionPart(0);
    static final int MINOR_VERSION = versionPart(1);

    static {
        try {
            DriverManager.registerDriver(new OntulDriver());
        }
        catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public Connection connect(String url, Properties info)
            throws SQLException
    {
        if (!acceptsURL(url)) {
            return null;
        }
        OntulUrl parsed = OntulUrl.parse(url, info == null ? new Properties() : info);
        JavaNioAccess.requireOpen();
        Connection arrowConnection;
        try {
            arrowConnection = ArrowDriver.INSTANCE.connect(parsed.arrowUrl(), parsed.arrowProperties());
        }
        catch (SQLException | RuntimeException e) {
            throw SqlErrors.atConnect(e, parsed);
        }
        if (arrowConnection == null) {
            throw new SQLException("Arrow's Flight SQL driver did not accept " + parsed.arrowUrl(), SqlErrors.INTERNAL);
        }
        try {
            return ConnectionHandler.open(arrowConnection, parsed);
        }
        catch (SQLException | RuntimeException e) {
            try {
                arrowConnection.close();
            }
            catch (SQLException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    @Override
    public boolean acceptsURL(String url)
    {
        return OntulUrl.accepts(url);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info)
    {
        Properties given = new Properties();
        if (info != null) {
            given.putAll(info);
        }
        return new DriverPropertyInfo[] {
                property(given, OntulUrl.USER, true, "User name (the server's first user is admin)"),
                property(given, OntulUrl.PASSWORD, true, "Password of the user"),
                choice(property(given, OntulUrl.TLS, false, "true to connect with TLS; default false"), "true", "false"),
                choice(property(given, "disableCertificateVerification", false, "With tls=true: accept any server certificate (testing only)"), "true", "false"),
                property(given, "trustStore", false, "With tls=true: Java keystore file with the certificates to trust"),
                property(given, "trustStorePassword", false, "Password of trustStore"),
                choice(property(given, "useSystemTrustStore", false, "With tls=true: trust the operating system's certificate store (default true)"), "true", "false"),
                property(given, "tlsRootCerts", false, "With tls=true: PEM file with the root certificates to trust"),
                property(given, OntulUrl.CATALOG, false, "Catalog to select (same as /catalog in the URL)"),
                property(given, OntulUrl.SCHEMA, false, "Schema to select, with the catalog (same as /catalog/schema in the URL)"),
        };
    }

    private static DriverPropertyInfo property(Properties given, String name, boolean required, String description)
    {
        DriverPropertyInfo property = new DriverPropertyInfo(name, given.getProperty(name));
        property.required = required;
        property.description = description;
        return property;
    }

    private static DriverPropertyInfo choice(DriverPropertyInfo property, String... choices)
    {
        property.choices = choices;
        return property;
    }

    @Override
    public int getMajorVersion()
    {
        return MAJOR_VERSION;
    }

    @Override
    public int getMinorVersion()
    {
        return MINOR_VERSION;
    }

    @Override
    public boolean jdbcCompliant()
    {
        return false;
    }

    @Override
    public Logger getParentLogger()
    {
        return Logger.getLogger("io.ontul.jdbc");
    }

    private static String loadVersion()
    {
        try (InputStream input = OntulDriver.class.getResourceAsStream("driver.properties")) {
            Properties properties = new Properties();
            if (input != null) {
                properties.load(input);
            }
            return Optional.ofNullable(properties.getProperty("version")).filter(version -> !version.startsWith("$")).orElse("0.0.0");
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int versionPart(int index)
    {
        String[] parts = VERSION.split("[.-]");
        try {
            return parts.length > index ? Integer.parseInt(parts[index]) : 0;
        }
        catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Arrow's driver, created on first use so that its classes load only after {@link JavaNioAccess}. */
    private static final class ArrowDriver
    {
        static final Driver INSTANCE = new org.apache.arrow.driver.jdbc.ArrowFlightJdbcDriver();
    }
}
