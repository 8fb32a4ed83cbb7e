package io.ontul.server.auth;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.auth2.BasicCallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator.AuthResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks basic-auth credentials against the {@link UserStore}; failures are UNAUTHENTICATED.
 * Failed logins in a row are counted per user name ({@link LoginFailures}) and logged; past a few
 * of them the name must wait before its password is checked again.
 */
public final class PasswordValidator
        implements BasicCallHeaderAuthenticator.CredentialValidator
{
    private static final Logger LOG = LoggerFactory.getLogger(PasswordValidator.class);
    private static final int TRACKED_NAMES = 100_000;

    private final UserStore users;
    private final LoginFailures failures;

    public PasswordValidator(UserStore users)
    {
        this(users, System::nanoTime);
    }

    PasswordValidator(UserStore users, java.util.function.LongSupplier nanoTime)
    {
        this.users = requireNonNull(users, "users is null");
        this.failures = new LoginFailures(TRACKED_NAMES, nanoTime);
    }

    @Override
    public AuthResult validate(String user, String password)
    {
        if (user == null || password == null) {
            throw wrongPassword();
        }
        java.util.Optional<java.time.Duration> wait = failures.remainingWait(user);
        if (wait.isPresent()) {
            long seconds = Math.max(1, (wait.get().toMillis() + 999) / 1000);
            throw CallStatus.UNAUTHENTICATED
                    .withDescription("Too many failed logins for user '" + abbreviated(user) + "': try again in " + seconds + " s")
                    .toRuntimeException();
        }
        if (!users.verify(user, password)) {
            int inARow = failures.failed(user);
            LOG.warn("Failed login for user '{}' ({} in a row{})", abbreviated(user), inARow,
                    inARow >= LoginFailures.FREE_FAILURES ? "; next attempt accepted in " + LoginFailures.wait(inARow).toSeconds() + " s" : "");
            throw wrongPassword();
        }
        failures.succeeded(user);
        return () -> user;
    }

    private static RuntimeException wrongPassword()
    {
        return CallStatus.UNAUTHENTICATED.withDescription("Wrong user name or password").toRuntimeException();
    }

    /** A user name as it goes into messages and the log: never more than 64 characters of it. */
    private static String abbreviated(String user)
    {
        return user.length() <= 64 ? user : user.substring(0, 64) + "...";
    }
}
