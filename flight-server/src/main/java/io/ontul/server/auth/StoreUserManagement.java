package io.ontul.server.auth;

import static java.util.Objects.requireNonNull;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Supplier;

import io.ontul.engine.security.UserManagement;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * The engine's CREATE/ALTER/DROP USER and SHOW USERS over the server's {@link UserStore}: the
 * users that log in over Flight SQL are the users these statements change. One user is the
 * administrator (the server passes {@code OntulServer.ADMIN_USER}).
 */
public final class StoreUserManagement
        implements UserManagement
{
    private final UserStore users;
    private final String administrator;

    public StoreUserManagement(UserStore users, String administrator)
    {
        this.users = requireNonNull(users, "users is null");
        this.administrator = requireNonNull(administrator, "administrator is null");
    }

    @Override
    public boolean isAdmin(String user)
    {
        return administrator.equals(user);
    }

    @Override
    public boolean createUser(String user, String password)
    {
        return saved(() -> users.create(user, password));
    }

    @Override
    public boolean setPassword(String user, String password)
    {
        return saved(() -> users.replacePassword(user, password));
    }

    @Override
    public boolean dropUser(String user)
    {
        return saved(() -> users.drop(user));
    }

    @Override
    public List<String> listUsers()
    {
        return users.users();
    }

    private static boolean saved(Supplier<Boolean> change)
    {
        try {
            return change.get();
        }
        catch (UncheckedIOException e) {
            // the message names the users file and the I/O failure, never a password
            throw new OntulException(ErrorCode.EXTERNAL_ERROR, e.getMessage() + ": " + e.getCause().getMessage() + " (the change was not made)", e);
        }
    }
}
