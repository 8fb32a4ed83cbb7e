package io.ontul.spi;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

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
 * @param allowedPaths local directories inside which catalogs may keep files (warehouses, table
 *        locations), absolute and normalised ({@code ontul.security.allowed-paths}, by default the
 *        server's data directory); empty for an engine without a data directory that was given
 *        none, which restricts nothing (tests, {@code bin/ontul sql})
 * @param allowedClientProperties client properties that load classes by name (a Kafka
 *        {@code sasl.login.callback.handler.class}, say) which catalogs may set all the same
 *        ({@code ontul.security.allowed-client-properties}; default none)
 */
public record HostAccessPolicy(Set<String> allowedJdbcDrivers, Optional<List<Path>> allowedPaths, Set<String> allowedClientProperties)
{
    public static final String ALLOWED_JDBC_DRIVERS = "ontul.security.jdbc.allowed-drivers";
    public static final String ALLOWED_PATHS = "ontul.security.allowed-paths";
    public static final String ALLOWED_CLIENT_PROPERTIES = "ontul.security.allowed-client-properties";
    /**
     * Database servers reached over the network. Embedded databases (H2, SQLite, Derby, HSQLDB)
     * are not among them: their URLs open local files and run scripts (H2's {@code INIT=RUNSCRIPT
     * FROM ...}) inside the server.
     */
    public static final Set<String> DEFAULT_JDBC_DRIVERS = Set.of("postgresql", "mysql", "mariadb");
    public static final HostAccessPolicy DEFAULT = new HostAccessPolicy(DEFAULT_JDBC_DRIVERS, Optional.empty(), Set.of());
    /** JDBC URL parameters that load classes, run scripts or open files (lower case). */
    private static final Set<String> FORBIDDEN_JDBC_PARAMETERS = Set.of(
            // H2, HSQLDB, Derby
            "init", "runscript", "ifexists", "file_lock", "access_mode_data", "createdatabasetemplate",
            // PostgreSQL
            "socketfactory", "socketfactoryarg", "sslfactory", "sslfactoryarg", "sslhostnameverifier", "sslpasswordcallback",
            "authenticationpluginclassname", "loggerfile", "loggerlevel", "jaasapplicationname", "kerberosservername",
            // MySQL, MariaDB
            "allowloadlocalinfile", "allowlocalinfile", "allowurlinlocalinfile", "allowloadlocalinfileinpath", "autodeserialize",
            "queryinterceptors", "statementinterceptors", "exceptioninterceptors", "connectionlifecycleinterceptors", "propertiestransform",
            "authenticationplugins", "defaultauthenticationplugin", "clientcertificatekeystoreurl", "trustcertificatekeystoreurl",
            "servercertificatekeystoreurl", "serversslcert", "keystore", "truststore", "logger", "profilersink", "credentialtype");

    /** JDBC URL parameters that name a local file the driver reads (lower case): PostgreSQL's TLS key, certificates, root CA. */
    private static final Set<String> FILE_JDBC_PARAMETERS = Set.of("sslcert", "sslkey", "sslrootcert");

    public HostAccessPolicy
    {
        allowedJdbcDrivers = Set.copyOf(requireNonNull(allowedJdbcDrivers, "allowedJdbcDrivers is null"));
        allowedPaths = requireNonNull(allowedPaths, "allowedPaths is null").map(paths -> paths.stream().map(HostAccessPolicy::normalized).toList());
        allowedClientProperties = Set.copyOf(requireNonNull(allowedClientProperties, "allowedClientProperties is null"));
    }

    /** From the comma-separated value of {@link #ALLOWED_JDBC_DRIVERS}; null means the default. */
    public static HostAccessPolicy of(String allowedJdbcDrivers)
    {
        return of(allowedJdbcDrivers, null, Optional.empty(), null);
    }

    /**
     * From the comma-separated values of {@link #ALLOWED_JDBC_DRIVERS}, {@link #ALLOWED_PATHS} and
     * {@link #ALLOWED_CLIENT_PROPERTIES} (null: the defaults; the paths then default to
     * {@code dataDirectory}).
     */
    public static HostAccessPolicy of(String allowedJdbcDrivers, String allowedPaths, Optional<Path> dataDirectory, String allowedClientProperties)
    {
        Set<String> clientProperties = new TreeSet<>();
        if (allowedClientProperties != null) {
            for (String property : allowedClientProperties.split(",")) {
                if (!property.isBlank()) {
                    clientProperties.add(property.strip());
                }
            }
        }
        Set<String> drivers = new TreeSet<>();
        if (allowedJdbcDrivers == null) {
            drivers.addAll(DEFAULT_JDBC_DRIVERS);
        }
        else {
            for (String driver : allowedJdbcDrivers.split(",")) {
                if (!driver.isBlank()) {
                    drivers.add(driver.strip().toLowerCase(Locale.ROOT));
                }
            }
        }
        Optional<List<Path>> paths;
        if (allowedPaths == null) {
            paths = dataDirectory.map(List::of);
        }
        else {
            List<Path> listed = new ArrayList<>();
            for (String path : allowedPaths.split(",")) {
                if (!path.isBlank()) {
                    listed.add(Path.of(path.strip()));
                }
            }
            paths = Optional.of(listed);
        }
        return new HostAccessPolicy(drivers, paths, clientProperties);
    }

    /**
     * Checks a client property a connector would hand to a library that loads the class it names
     * (or a login module, or reads a file through a provider): refused unless the operator
     * allowed the property by name.
     *
     * @param why what the property does, for the message ("loads a class by name")
     * @throws OntulException INVALID_ARGUMENT naming the property
     */
    public void checkClientProperty(String catalog, String property, String clientProperty, String why)
    {
        if (!allowedClientProperties.contains(clientProperty)) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT,
                    "Catalog '%s': property '%s' is refused: it %s on the server's host (an operator may allow it in %s in conf/ontul.properties)",
                    catalog, property, why, ALLOWED_CLIENT_PROPERTIES);
        }
    }

    /**
     * Checks a location a catalog would keep files at: a local path ({@code /x}, {@code file:/x},
     * {@code file:///x}) must lie inside one of {@link #allowedPaths()} once made absolute,
     * normalised ({@code ..} resolved) and its existing part's symbolic links followed; other
     * schemes ({@code s3://}, {@code hdfs://}) are not on this host and pass.
     *
     * @throws OntulException INVALID_ARGUMENT naming the property, the location and the allowed paths
     */
    public void checkLocation(String catalog, String property, String location)
    {
        if (allowedPaths.isEmpty()) {
            return;
        }
        Optional<Path> local = localPath(location);
        if (local.isEmpty()) {
            return;
        }
        Path path = normalized(local.get());
        for (Path allowed : allowedPaths.get()) {
            if (path.startsWith(allowed)) {
                return;
            }
        }
        throw OntulException.userError(ErrorCode.INVALID_ARGUMENT,
                "Catalog '%s': property '%s' is '%s', which is outside the directories this server lets catalogs use (%s; an operator may change %s in conf/ontul.properties)",
                catalog, property, location, allowedPaths.get().isEmpty() ? "none" : allowedPaths.get().stream().map(Object::toString).collect(Collectors.joining(", ")),
                ALLOWED_PATHS);
    }

    /** The local file system path a location names, if it names one. */
    private static Optional<Path> localPath(String location)
    {
        String text = location.strip();
        if (text.startsWith("file:")) {
            try {
                return Optional.of(Path.of(URI.create(text.replace(" ", "%20"))));
            }
            catch (IllegalArgumentException e) {
                // file:relative/path and other forms a URI does not take
                return Optional.of(Path.of(text.substring("file:".length())));
            }
        }
        if (text.matches("^[A-Za-z][A-Za-z0-9+.-]*://.*")) {
            return Optional.empty();
        }
        return Optional.of(Path.of(text));
    }

    /** Absolute, {@code ..} resolved, and the symbolic links of its longest existing ancestor followed. */
    private static Path normalized(Path path)
    {
        Path absolute = path.toAbsolutePath().normalize();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return absolute;
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(absolute)).normalize();
        }
        catch (IOException e) {
            return absolute;
        }
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

    /**
     * Refuses JDBC URL parameters that load classes, run scripts or open files on the server's
     * host (H2's INIT, PostgreSQL's socketFactory, MySQL's allowLoadLocalInfile...), whatever the
     * driver; for every catalog that takes a JDBC URL.
     *
     * @param rest the URL after {@code jdbc:<subprotocol>:}
     * @throws OntulException INVALID_ARGUMENT naming the parameter
     */
    public static void checkJdbcParameters(String catalogName, String property, String rest)
    {
        for (String parameter : rest.split("[?&;]")) {
            int equals = parameter.indexOf('=');
            String name = (equals < 0 ? parameter : parameter.substring(0, equals)).strip().toLowerCase(Locale.ROOT);
            if (FORBIDDEN_JDBC_PARAMETERS.contains(name)) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT,
                        "Catalog '%s': property '%s' must not set parameter '%s': it loads classes, runs scripts or opens files on the server's host",
                        catalogName, property, parameter.substring(0, equals < 0 ? parameter.length() : equals).strip());
            }
        }
    }

    /**
     * Checks the local files a JDBC URL's parameters name (PostgreSQL's {@code sslcert},
     * {@code sslkey}, {@code sslrootcert}) as {@link #checkLocation} checks a location: a TLS
     * key and certificates may be read from inside the allowed directories only, not from
     * anywhere the server's OS user can read.
     *
     * @param rest the URL after {@code jdbc:<subprotocol>:}
     * @throws OntulException INVALID_ARGUMENT naming the parameter and the file
     */
    public void checkJdbcFiles(String catalog, String property, String rest)
    {
        for (String parameter : rest.split("[?&;]")) {
            int equals = parameter.indexOf('=');
            if (equals < 0) {
                continue;
            }
            String name = parameter.substring(0, equals).strip();
            if (FILE_JDBC_PARAMETERS.contains(name.toLowerCase(Locale.ROOT))) {
                String file = URLDecoder.decode(parameter.substring(equals + 1), StandardCharsets.UTF_8);
                checkLocation(catalog, property + "' parameter '" + name, file);
            }
        }
    }
}
