package io.ontul.jdbc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.net.URLDecoder;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * A parsed {@code jdbc:ontul://host[:port][/catalog[/schema]][?key=value&...]} URL merged with
 * the connection properties, and its translation to Arrow's Flight SQL JDBC driver.
 * <p>
 * Properties given to {@code connect} win over URL parameters of the same name. {@code tls}
 * (default false) becomes Arrow's {@code useEncryption}; {@code catalog} and {@code schema} may
 * also be given as parameters; {@code arrowResults=true} reads query results through Arrow's
 * driver's own result sets instead of the driver's direct reader ({@link ArrowResultSet}: much
 * slower, kept for comparison); every other parameter (for example
 * {@code disableCertificateVerification}, {@code trustStore}, {@code trustStorePassword}) is
 * passed to Arrow's driver unchanged.
 */
final class OntulUrl
{
    static final String PREFIX = "jdbc:ontul:";
    static final int DEFAULT_PORT = 47470;

    static final String USER = "user";
    static final String PASSWORD = "password";
    static final String TLS = "tls";
    static final String CATALOG = "catalog";
    static final String SCHEMA = "schema";
    static final String ARROW_RESULTS = "arrowResults";

    private static final String ARROW_PREFIX = "jdbc:arrow-flight-sql://";
    private static final String ARROW_USE_ENCRYPTION = "useEncryption";
    private static final String ARROW_TOKEN = "token";
    private static final List<String> ARROW_LOCATION_KEYS = List.of("host", "port");

    private final String host;
    private final int port;
    private final Optional<String> catalog;
    private final Optional<String> schema;
    private final boolean tls;
    private final boolean arrowResults;
    private final Map<String, String> parameters;

    private OntulUrl(String host, int port, Optional<String> catalog, Optional<String> schema, boolean tls, boolean arrowResults, Map<String, String> parameters)
    {
        this.arrowResults = arrowResults;
        this.host = requireNonNull(host, "host is null");
        this.port = port;
        this.catalog = requireNonNull(catalog, "catalog is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.tls = tls;
        this.parameters = Map.copyOf(requireNonNull(parameters, "parameters is null"));
    }

    static boolean accepts(String url)
    {
        return url != null && url.regionMatches(true, 0, PREFIX, 0, PREFIX.length());
    }

    static OntulUrl parse(String url, Properties properties)
            throws SQLException
    {
        if (!accepts(url)) {
            throw invalid(url, "it must start with jdbc:ontul://");
        }
        String rest = url.substring(PREFIX.length());
        if (!rest.startsWith("//")) {
            throw invalid(url, "it must start with jdbc:ontul://");
        }
        rest = rest.substring(2);

        String query = "";
        int question = rest.indexOf('?');
        if (question >= 0) {
            query = rest.substring(question + 1);
            rest = rest.substring(0, question);
        }
        String authority = rest;
        String path = "";
        int slash = rest.indexOf('/');
        if (slash >= 0) {
            authority = rest.substring(0, slash);
            path = rest.substring(slash + 1);
        }

        if (authority.contains("@")) {
            throw invalid(url, "user and password go in parameters (?user=NAME&password=SECRET) or connection properties, not before the host");
        }
        String host;
        String portText = null;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw invalid(url, "unclosed '[' in the host");
            }
            host = authority.substring(0, close + 1);
            String after = authority.substring(close + 1);
            if (after.startsWith(":")) {
                portText = after.substring(1);
            }
            else if (!after.isEmpty()) {
                throw invalid(url, "unexpected '" + after + "' after the host");
            }
        }
        else {
            int colon = authority.lastIndexOf(':');
            host = colon >= 0 ? authority.substring(0, colon) : authority;
            portText = colon >= 0 ? authority.substring(colon + 1) : null;
        }
        if (host.isEmpty()) {
            throw invalid(url, "the host is missing");
        }
        int port = portText == null ? DEFAULT_PORT : port(url, portText);

        Map<String, String> parameters = parameters(query, properties);

        Optional<String> catalog = Optional.ofNullable(parameters.remove(CATALOG)).filter(value -> !value.isEmpty());
        Optional<String> schema = Optional.ofNullable(parameters.remove(SCHEMA)).filter(value -> !value.isEmpty());
        if (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        List<String> segments = path.isEmpty() ? List.of() : List.of(path.split("/", -1));
        if (segments.size() > 2 || segments.contains("")) {
            throw invalid(url, "the path must be /catalog or /catalog/schema");
        }
        if (!segments.isEmpty()) {
            catalog = Optional.of(decode(segments.get(0)));
        }
        if (segments.size() == 2) {
            schema = Optional.of(decode(segments.get(1)));
        }
        if (schema.isPresent() && catalog.isEmpty()) {
            throw invalid(url, "a schema needs a catalog: use /catalog/schema");
        }

        boolean tls = tls(url, parameters);
        boolean arrowResults = flag(url, parameters, ARROW_RESULTS);
        parameters.remove(ARROW_USE_ENCRYPTION);
        for (String key : ARROW_LOCATION_KEYS) {
            parameters.remove(key);
        }
        if (parameters.getOrDefault(USER, "").isBlank() && !parameters.containsKey(ARROW_TOKEN)) {
            throw new SQLException("No user given for " + redact(url) + ": add user=NAME and password=SECRET as connection properties or URL parameters", "28000");
        }
        return new OntulUrl(host, port, catalog, schema, tls, arrowResults, parameters);
    }

    /** The URL's query parameters, then the properties given to connect (empty ones do not count). */
    private static Map<String, String> parameters(String query, Properties properties)
    {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String key = decode(equals >= 0 ? pair.substring(0, equals) : pair);
            String value = equals >= 0 ? decode(pair.substring(equals + 1)) : "";
            parameters.put(key, value);
        }
        for (String key : properties.stringPropertyNames()) {
            String value = properties.getProperty(key);
            if (!value.isEmpty()) {
                parameters.put(key, value);
            }
        }
        return parameters;
    }

    /** Removes tls and reads it; Arrow's own useEncryption counts when tls is absent. */
    private static boolean tls(String url, Map<String, String> parameters)
            throws SQLException
    {
        String text = parameters.remove(TLS);
        if (text == null) {
            return Boolean.parseBoolean(parameters.get(ARROW_USE_ENCRYPTION));
        }
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(url, "tls must be true or false, not '" + text + "'");
        };
    }

    /** Removes a true/false parameter and reads it (false when absent). */
    private static boolean flag(String url, Map<String, String> parameters, String name)
            throws SQLException
    {
        String text = parameters.remove(name);
        if (text == null) {
            return false;
        }
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(url, name + " must be true or false, not '" + text + "'");
        };
    }

    private static int port(String url, String text)
            throws SQLException
    {
        try {
            int port = Integer.parseInt(text);
            if (port >= 1 && port <= 65535) {
                return port;
            }
        }
        catch (NumberFormatException ignored) {
            // reported below
        }
        throw invalid(url, "the port must be a number from 1 to 65535, not '" + text + "'");
    }

    /** Percent-decoding; unlike form decoding a '+' stays a '+', as passwords may hold one. */
    private static String decode(String text)
    {
        return URLDecoder.decode(text.replace("+", "%2B"), UTF_8);
    }

    private static SQLException invalid(String url, String reason)
    {
        return new SQLException("Invalid Ontul JDBC URL " + redact(url) + ": " + reason
                + " (jdbc:ontul://host[:port][/catalog[/schema]][?user=NAME&password=SECRET&tls=true])", "08001");
    }

    /** The URL without the value of a password parameter, for messages. */
    static String redact(String url)
    {
        if (url == null) {
            return null;
        }
        // user:secret@host: the part before '@' may hold a password
        String withoutUserInfo = url.replaceAll("^(jdbc:ontul://)[^/?#]*@", "$1***@");
        return withoutUserInfo.replaceAll("(?i)(password=)[^&]*", "$1***");
    }

    String host()
    {
        return host;
    }

    int port()
    {
        return port;
    }

    Optional<String> catalog()
    {
        return catalog;
    }

    Optional<String> schema()
    {
        return schema;
    }

    boolean tls()
    {
        return tls;
    }

    /** Whether query results are read through Arrow's driver's result sets ({@value #ARROW_RESULTS}=true). */
    boolean arrowResults()
    {
        return arrowResults;
    }

    Optional<String> user()
    {
        return Optional.ofNullable(parameters.get(USER));
    }

    /** The URL of this connection without credentials, as {@code DatabaseMetaData.getURL} reports it. */
    String displayUrl()
    {
        StringBuilder url = new StringBuilder(PREFIX).append("//").append(host).append(':').append(port);
        catalog.ifPresent(value -> url.append('/').append(value));
        schema.ifPresent(value -> url.append('/').append(value));
        if (tls) {
            url.append("?tls=true");
        }
        return url.toString();
    }

    String arrowUrl()
    {
        return ARROW_PREFIX + host + ":" + port + "/";
    }

    /**
     * Everything Arrow's driver needs besides the location: credentials travel as properties,
     * never in the URL, so no value needs escaping.
     */
    Properties arrowProperties()
    {
        Properties properties = new Properties();
        properties.putAll(parameters);
        properties.setProperty(ARROW_USE_ENCRYPTION, String.valueOf(tls));
        return properties;
    }
}
