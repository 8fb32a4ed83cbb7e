package io.ontul.spi;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a catalog's configuration may reach on the server's host, set by the server's operator
 * ({@code ontul.security.*} in {@code conf/ontul.properties}). A catalog's properties come from
 * {@code CREATE CATALOG} as well as from files, so they must never become a way to run code or
 * read files as the server's OS user: a connector checks every driver it would load from a
 * catalog's configuration here before it loads it, when the catalog is created and when it is
 * loaded again at start.
 *
 * @param allowedJdbcDrivers JDBC subprotocols ({@code postgresql} for {@code jdbc:postgresql:})
 *        catalogs may connect with ({@code ontul.security.jdbc.allowed-drivers})
 */
public record HostAccessPolicy(Set<String> allowedJdbcDrivers)
{
    public static final String ALLOWED_JDBC_DRIVERS = "ontul.security.jdbc.allowed-drivers";
    /**
     * Database servers reached over the network. Embedded databases (H2, SQLite, Derby, HSQLDB)
     * are not among them: their URLs open local files and run scripts (H2's {@code INIT=RUNSCRIPT
     * FROM ...}) inside the server.
     */
    public static final Set<String> DEFAULT_JDBC_DRIVERS = Set.of("postgresql", "mysql", "mariadb");
    public static final HostAccessPolicy DEFAULT = new HostAccessPolicy(DEFAULT_JDBC_DRIVERS);

    public HostAccessPolicy
    {
        allowedJdbcDrivers = Set.copyOf(requireNonNull(allowedJdbcDrivers, "allowedJdbcDrivers is null"));
    }

    /** From the comma-separated value of {@link #ALLOWED_JDBC_DRIVERS}; null means the default. */
    public static HostAccessPolicy of(String allowedJdbcDrivers)
    {
        if (allowedJdbcDrivers == null) {
            return DEFAULT;
        }
        Set<String> drivers = new TreeSet<>();
        for (String driver : allowedJdbcDrivers.split(",")) {
            if (!driver.isBlank()) {
                drivers.add(driver.strip().toLowerCase(Locale.ROOT));
            }
        }
        return new HostAccessPolicy(drivers);
    }

    /**
     * @param catalog the catalog, for the message
     * @param property the property holding the URL, for the message
     * @param subprotocol the URL's driver name, as in {@code jdbc:<subprotocol>:...}
     * @throws OntulException INVALID_ARGUMENT when the operator did not allow the driver
     */
    public void checkJdbcDriver(String catalog, String property, String subprotocol)
    {
        if (!allowedJdbcDrivers.contains(subprotocol.toLowerCase(Locale.ROOT))) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT,
                    "Catalog '%s': property '%s' uses JDBC driver 'jdbc:%s', which this server does not allow (allowed: %s; an operator may change %s in conf/ontul.properties)",
                    catalog, property, subprotocol, allowedJdbcDrivers.isEmpty() ? "none" : String.join(", ", new TreeSet<>(allowedJdbcDrivers)), ALLOWED_JDBC_DRIVERS);
        }
    }
}
