package io.ontul.engine.api;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

import io.ontul.engine.security.AuditLog;
import io.ontul.engine.security.PasswordHasher;
import io.ontul.engine.security.UserStore;

/**
 * The users that log in, kept in the engine's metadata store ({@code ontul_users}): what a front
 * checks a password or a token against. Only salted PBKDF2 hashes are stored; a password checked
 * in the last minutes is remembered (keyed, never in clear) so returning clients cost no
 * derivation. Thread-safe. {@code CREATE USER} and its kin change the same users.
 */
public interface UserAccounts
{
    /** Whether {@code user} exists. */
    boolean exists(String user);

    /**
     * Whether {@code password} is the password of {@code user}. An unknown user costs the same
     * derivation as a known one.
     */
    boolean verify(String user, String password);

    /**
     * The id the user got when it was created (tokens carry it, so a user dropped and created again
     * does not inherit the old tokens); empty when there is no such user, "" for a user created
     * before users had ids.
     */
    Optional<String> id(String user);

    /** Sets the password of {@code user}, creating the user if needed. */
    void setPassword(String user, String password);

    /** Records a successful login in the audit log; {@code address} may be null. */
    void loginSucceeded(String user, String address);

    /** Records a refused login in the audit log: a wrong password, or a wait imposed after too many. */
    void loginFailed(String user, String address, String reason);

    /** A random password, strong enough for a generated administrator password. */
    static String generatePassword()
    {
        return new PasswordHasher().generatePassword();
    }

    /** The accounts of {@code store}, their logins recorded in {@code audit}. */
    static UserAccounts over(UserStore store, AuditLog audit)
    {
        requireNonNull(store, "store is null");
        requireNonNull(audit, "audit is null");
        return new UserAccounts()
        {
            @Override
            public boolean exists(String user)
            {
                return store.exists(user);
            }

            @Override
            public boolean verify(String user, String password)
            {
                return store.verify(user, password);
            }

            @Override
            public Optional<String> id(String user)
            {
                return store.id(user);
            }

            @Override
            public void setPassword(String user, String password)
            {
                store.setPassword(user, password);
            }

            @Override
            public void loginSucceeded(String user, String address)
            {
                audit.record(new AuditLog.Event(java.time.Instant.now(), AuditLog.Kind.LOGIN, user, address, null, "OK", null));
            }

            @Override
            public void loginFailed(String user, String address, String reason)
            {
                audit.record(new AuditLog.Event(java.time.Instant.now(), AuditLog.Kind.LOGIN_FAILED, user, address, null, "FAILED", reason));
            }
        };
    }
}
