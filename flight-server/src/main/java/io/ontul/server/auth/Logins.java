package io.ontul.server.auth;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;

import org.apache.arrow.flight.CallStatus;

import io.ontul.engine.api.EngineConfig;
import io.ontul.engine.api.UserAccounts;

/**
 * The server's one door for users, whichever protocol they come by (Flight SQL, HTTP): a password
 * login that returns a signed token, and the check of a token. Both protocols share the token
 * secret and the count of failed logins, so a token from one works on the other and a client
 * guessing passwords over HTTP is slowed over Flight too. Failures are {@code UNAUTHENTICATED}
 * Flight errors with the message a client sees.
 */
public final class Logins
{
    private final JwtTokens tokens;
    private final PasswordValidator passwords;
    private final UserAccounts users;

    public Logins(JwtTokens tokens, PasswordValidator passwords, UserAccounts users)
    {
        this.tokens = requireNonNull(tokens, "tokens is null");
        this.passwords = requireNonNull(passwords, "passwords is null");
        this.users = requireNonNull(users, "users is null");
    }

    /**
     * Passwords of {@code users}; tokens signed with the secret of {@code dataDirectory} (created
     * on first start), valid as long as {@value AuthenticationConfig#TOKEN_TTL} says.
     */
    public static Logins create(EngineConfig config, Path dataDirectory, UserAccounts users)
            throws IOException
    {
        AuthenticationConfig authentication = AuthenticationConfig.from(config);
        JwtTokens tokens = new JwtTokens(TokenSecret.loadOrCreate(dataDirectory), authentication.tokenTimeToLive(), Clock.systemUTC());
        return new Logins(tokens, new PasswordValidator(users), users);
    }

    PasswordValidator passwords()
    {
        return passwords;
    }

    /**
     * Checks a password and issues a new token for the user. Failed logins are counted per user
     * name and per {@code address} (when known).
     */
    public Login login(String user, String password, Optional<String> address)
    {
        io.grpc.Context withAddress = address
                .map(known -> io.grpc.Context.current().withValue(ClientAddress.KEY, known))
                .orElse(io.grpc.Context.current());
        io.grpc.Context previous = withAddress.attach();
        String name;
        try {
            name = passwords.validate(user, password).getPeerIdentity();
        }
        finally {
            withAddress.detach(previous);
        }
        String token = issue(name);
        return new Login(token, verify(token));
    }

    /** A token issued at login, with its claims. */
    public record Login(String token, VerifiedToken claims)
    {
        public Login
        {
            requireNonNull(token, "token is null");
            requireNonNull(claims, "claims is null");
        }
    }

    /** A new token for {@code user}, who logged in. */
    String issue(String user)
    {
        return tokens.issue(user, users.id(user).orElse(""));
    }

    /** The claims of a bearer token, when its signature and expiry check out and its user still exists (the same user, not a new one of that name). */
    public VerifiedToken verify(String bearer)
    {
        VerifiedToken token;
        try {
            token = tokens.verify(bearer);
        }
        catch (InvalidTokenException e) {
            throw CallStatus.UNAUTHENTICATED.withDescription(e.getMessage()).toRuntimeException();
        }
        Optional<String> userId = users.id(token.user());
        if (userId.isEmpty()) {
            throw CallStatus.UNAUTHENTICATED
                    .withDescription("Invalid token: user '" + token.user() + "' no longer exists")
                    .toRuntimeException();
        }
        if (!userId.get().equals(token.userId())) {
            // the name was dropped and created again: the new user does not inherit the old one's tokens
            throw CallStatus.UNAUTHENTICATED
                    .withDescription("Invalid token: it was issued to an earlier user named '" + token.user() + "'; log in again")
                    .toRuntimeException();
        }
        return token;
    }
}
