package io.ontul.server.auth;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.auth2.BasicCallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator.AuthResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.engine.api.UserAccounts;

/**
 * Checks basic-auth credentials against the engine's {@link UserAccounts}; failures are UNAUTHENTICATED.
 * Failed logins in a row are counted per user name and per client address
 * ({@link LoginFailures}, the address from {@link ClientAddress}) and logged; past a few of them
 * the name, or past more of them the address (a client trying many names), must wait before a
 * password is checked again.
 */
public final class PasswordValidator
        implements BasicCallHeaderAuthenticator.CredentialValidator
{
    private static final Logger LOG = LoggerFactory.getLogger(PasswordValidator.class);
    private static final int TRACKED_NAMES = 100_000;

    private final UserAccounts users;
    private final LoginFailures failures;
    private final LoginFailures addressFailures;

    public PasswordValidator(UserAccounts users)
    {
        this(users, System::nanoTime);
    }

    PasswordValidator(UserAccounts users, java.util.function.LongSupplier nanoTime)
    {
        this.users = requireNonNull(users, "users is null");
        this.failures = new LoginFailures(LoginFailures.FREE_FAILURES, TRACKED_NAMES, nanoTime);
        this.addressFailures = new LoginFailures(LoginFailures.FREE_ADDRESS_FAILURES, TRACKED_NAMES, nanoTime);
    }

    @Override
    public AuthResult validate(String user, String password)
    {
        if (user == null || password == null) {
            throw wrongPassword();
        }
        java.util.Optional<String> address = ClientAddress.current();
        java.util.Optional<java.time.Duration> wait = failures.remainingWait(user);
        if (wait.isPresent()) {
            users.loginFailed(abbreviated(user), address.orElse(null), "slowed: too many failed logins for the user, not checked");
            throw tooMany("for user '" + abbreviated(user) + "'", wait.get());
        }
        java.util.Optional<java.time.Duration> addressWait = address.flatMap(addressFailures::remainingWait);
        if (addressWait.isPresent()) {
            users.loginFailed(abbreviated(user), address.orElse(null), "slowed: too many failed logins from the address, not checked");
            throw tooMany("from this address", addressWait.get());
        }
        if (!users.verify(user, password)) {
            int inARow = failures.failed(user);
            int fromAddress = address.map(addressFailures::failed).orElse(0);
            LOG.warn("Failed login for user '{}' from {} ({} in a row for the user{}, {} from the address{})", abbreviated(user), address.orElse("an unknown address"), inARow,
                    inARow >= LoginFailures.FREE_FAILURES ? "; next attempt accepted in " + failures.waitAfter(inARow).toSeconds() + " s" : "",
                    fromAddress, fromAddress >= LoginFailures.FREE_ADDRESS_FAILURES ? "; next attempt from it accepted in " + addressFailures.waitAfter(fromAddress).toSeconds() + " s" : "");
            users.loginFailed(abbreviated(user), address.orElse(null), "wrong user name or password");
            throw wrongPassword();
        }
        users.loginSucceeded(user, address.orElse(null));
        failures.succeeded(user);
        address.ifPresent(addressFailures::succeeded);
        return () -> user;
    }

    private static RuntimeException tooMany(String whose, java.time.Duration wait)
    {
        long seconds = Math.max(1, (wait.toMillis() + 999) / 1000);
        return CallStatus.UNAUTHENTICATED.withDescription("Too many failed logins " + whose + ": try again in " + seconds + " s").toRuntimeException();
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
