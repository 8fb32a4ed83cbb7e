package io.ontul.catalog.jdbc;

import static java.util.Objects.requireNonNull;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * A {@code connection-url} as the connector uses it: the driver's subprotocol (which picks the
 * dialect), the server address for error messages, and the URL itself with any
 * {@code password=} parameter taken out, so the URL can be logged (HikariCP logs it) and shown.
 */
public record JdbcUrl(String url, String subprotocol, Optional<String> authority, Optional<String> password)
{
    public JdbcUrl
    {
        requireNonNull(url, "url is null");
        requireNonNull(subprotocol, "subprotocol is null");
        requireNonNull(authority, "authority is null");
        requireNonNull(password, "password is null");
    }

    /**
     * @param catalogName the catalog and property name, for messages
     * @throws OntulException INVALID_ARGUMENT if the text is not a JDBC URL or holds a password
     * in its user-info part
     */
    /**
     * URL parameters of the allowed drivers (and of embedded databases) that load classes by name,
     * run scripts, or read or write local files: refused whatever the driver, so that a catalog
     * definition cannot run code or touch files as the server's OS user.
     */
    public static JdbcUrl parse(String catalogName, String property, String text)
    {
        if (!text.startsWith("jdbc:") || text.indexOf(':', 5) < 0) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': property '%s' must be a JDBC URL such as jdbc:postgresql://host:5432/database", catalogName, property);
        }
        String subprotocol = text.substring(5, text.indexOf(':', 5)).toLowerCase(Locale.ROOT);
        String rest = text.substring(text.indexOf(':', 5) + 1);
        io.ontul.spi.HostAccessPolicy.checkJdbcParameters(catalogName, property, rest);
        Optional<String> authority = authority(rest);
        if (authority.isPresent() && authority.get().contains("@")) {
            String userInfo = authority.get().substring(0, authority.get().lastIndexOf('@'));
            if (userInfo.contains(":")) {
                throw OntulException.userError(ErrorCode.INVALID_ARGUMENT, "Catalog '%s': property '%s' must not hold a password: put it in 'connection-password'", catalogName, property);
            }
            authority = Optional.of(authority.get().substring(authority.get().lastIndexOf('@') + 1));
        }
        StringBuilder url = new StringBuilder();
        Optional<String> password = Optional.empty();
        int query = text.indexOf('?');
        if (query < 0) {
            url.append(text);
        }
        else {
            url.append(text, 0, query);
            List<String> kept = new ArrayList<>();
            for (String parameter : text.substring(query + 1).split("&")) {
                int equals = parameter.indexOf('=');
                String name = equals < 0 ? parameter : parameter.substring(0, equals);
                if (name.equalsIgnoreCase("password")) {
                    password = Optional.of(equals < 0 ? "" : URLDecoder.decode(parameter.substring(equals + 1), StandardCharsets.UTF_8));
                }
                else if (!parameter.isEmpty()) {
                    kept.add(parameter);
                }
            }
            if (!kept.isEmpty()) {
                url.append('?').append(String.join("&", kept));
            }
        }
        // the URL is shown in messages: any other secret in it (;password=, sslpassword=, Oracle's
        // user/password@host) would be shown too
        String shown = url.toString().toLowerCase(Locale.ROOT);
        boolean oracleCredentials = subprotocol.equals("oracle") && rest.contains("@") && rest.substring(0, rest.indexOf('@')).contains("/");
        if (shown.contains("password") || shown.contains("passwd") || oracleCredentials) {
            throw OntulException.userError(ErrorCode.INVALID_ARGUMENT,
                    "Catalog '%s': property '%s' must not hold a password or other secret: put the password in 'connection-password'", catalogName, property);
        }
        return new JdbcUrl(url.toString(), subprotocol, authority, password);
    }

    /**
     * The server address as {@code host:port} (several, comma separated, for a URL that lists
     * several), with {@code defaultPort} where the URL gives none; empty if the URL's form is
     * unknown.
     */
    public Optional<String> serverAddress(int defaultPort)
    {
        if (authority.isEmpty()) {
            return Optional.empty();
        }
        List<String> addresses = new ArrayList<>();
        for (String host : authority.get().split(",")) {
            if (host.isEmpty()) {
                continue;
            }
            int bracket = host.lastIndexOf(']');
            boolean hasPort = host.indexOf(':', bracket + 1) >= 0;
            addresses.add(hasPort || defaultPort <= 0 ? host : host + ":" + defaultPort);
        }
        return addresses.isEmpty() ? Optional.empty() : Optional.of(String.join(",", addresses));
    }

    private static Optional<String> authority(String rest)
    {
        String start;
        if (rest.startsWith("//")) {
            start = rest.substring(2);
        }
        else if (rest.contains("@")) {
            // jdbc:oracle:thin:@host:1521/service
            start = rest.substring(rest.lastIndexOf('@') + 1);
            if (start.startsWith("//")) {
                start = start.substring(2);
            }
        }
        else {
            // jdbc:postgresql:database means the local server
            return rest.contains("/") ? Optional.empty() : Optional.of("localhost");
        }
        int end = start.length();
        for (char terminator : new char[] {'/', '?', ';'}) {
            int index = start.indexOf(terminator);
            if (index >= 0) {
                end = Math.min(end, index);
            }
        }
        String authority = start.substring(0, end);
        return authority.isEmpty() ? Optional.of("localhost") : Optional.of(authority);
    }

    @Override
    public String toString()
    {
        return url;
    }
}
