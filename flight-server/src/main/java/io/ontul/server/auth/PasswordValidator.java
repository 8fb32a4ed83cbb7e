package io.ontul.server.auth;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.auth2.BasicCallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator.AuthResult;

/** Checks basic-auth credentials against the {@link UserStore}; failures are UNAUTHENTICATED. */
public final class PasswordValidator
        implements BasicCallHeaderAuthenticator.CredentialValidator
{
    private final UserStore users;

    public PasswordValidator(UserStore users)
    {
        this.users = requireNonNull(users, "users is null");
    }

    @Override
    public AuthResult validate(String user, String password)
    {
        if (user == null || password == null || !users.verify(user, password)) {
            throw CallStatus.UNAUTHENTICATED.withDescription("Wrong user name or password").toRuntimeException();
        }
        return () -> user;
    }
}
