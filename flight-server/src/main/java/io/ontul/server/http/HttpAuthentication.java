package io.ontul.server.http;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.arrow.flight.CallStatus;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.security.BasicAuthCredentials;
import io.ontul.engine.api.Engine;
import io.ontul.server.auth.Logins;

/**
 * Who calls: {@code POST /v1/login} with {@code Authorization: Basic} returns a token; every other
 * call under {@code /v1} and {@code /metrics} needs {@code Authorization: Bearer <token>} (or Basic
 * credentials, checked on every call, as a Prometheus scraper sends them). The same users, tokens
 * and failed-login counts as Flight SQL ({@link Logins}); a missing or bad credential is 401 with
 * Flight's message.
 */
public final class HttpAuthentication
{
    private static final String USER = "ontul.user";
    /** Paths anyone may read: the login itself and the API's description. */
    private static final Set<String> PUBLIC = Set.of("/v1/login", "/v1/openapi.json");

    private final Logins logins;
    private final Engine engine;

    public HttpAuthentication(Logins logins, Engine engine)
    {
        this.logins = requireNonNull(logins, "logins is null");
        this.engine = requireNonNull(engine, "engine is null");
    }

    public void register(RoutesConfig routes)
    {
        routes.before("/v1/*", this::authenticate);
        routes.before("/metrics", this::authenticate);
        routes.post("/v1/login", this::login);
    }

    private void login(Context context)
    {
        BasicAuthCredentials credentials = basic(context)
                .orElseThrow(() -> CallStatus.UNAUTHENTICATED.withDescription("Missing credentials: log in with a user name and password (Authorization: Basic)").toRuntimeException());
        Logins.Login login = logins.login(credentials.getUsername(), credentials.getPassword(), Optional.ofNullable(context.ip()));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("user", login.claims().user());
        body.put("token", login.token());
        body.put("expiresAt", login.claims().expiresAt().toString());
        body.put("admin", isAdmin(login.claims().user()));
        context.json(body);
    }

    private void authenticate(Context context)
    {
        if (PUBLIC.contains(context.path()) || context.method().name().equals("OPTIONS")) {
            return;
        }
        String header = context.header("Authorization");
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            context.attribute(USER, logins.verify(header.substring(7).trim()).user());
            return;
        }
        Optional<BasicAuthCredentials> basic = basic(context);
        if (basic.isPresent()) {
            context.attribute(USER, logins.login(basic.get().getUsername(), basic.get().getPassword(), Optional.ofNullable(context.ip())).claims().user());
            return;
        }
        throw CallStatus.UNAUTHENTICATED
                .withDescription("Missing credentials: log in with a user name and password (Authorization: Basic) or send a token (Authorization: Bearer)")
                .toRuntimeException();
    }

    private static Optional<BasicAuthCredentials> basic(Context context)
    {
        String header = context.header("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Optional.empty();
        }
        BasicAuthCredentials credentials;
        try {
            credentials = context.basicAuthCredentials();
        }
        catch (RuntimeException e) {
            throw CallStatus.UNAUTHENTICATED.withDescription("Malformed basic credentials: expected Base64 of user:password").toRuntimeException();
        }
        return Optional.ofNullable(credentials);
    }

    /** The user of an authenticated call. */
    public static String user(Context context)
    {
        String user = context.attribute(USER);
        if (user == null) {
            throw new IllegalStateException("no authenticated user for " + context.path());
        }
        return user;
    }

    public boolean isAdmin(String user)
    {
        return engine.userManagement().map(users -> users.isAdmin(user)).orElse(user.equals("admin"));
    }

    /** Fails with PERMISSION_DENIED unless the caller is an administrator. */
    public void requireAdmin(Context context, String what)
    {
        String user = user(context);
        if (!isAdmin(user)) {
            throw new io.ontul.spi.OntulException(io.ontul.spi.ErrorCode.PERMISSION_DENIED, "Access denied: " + what + " is for administrators; user '" + user + "' is not one");
        }
    }
}
