package io.ontul.server.auth;

import static java.util.Objects.requireNonNull;

import java.util.List;

import io.ontul.engine.api.UserManagement;

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
        return users.create(user, password);
    }

    @Override
    public boolean setPassword(String user, String password)
    {
        return users.replacePassword(user, password);
    }

    @Override
    public boolean dropUser(String user)
    {
        return users.drop(user);
    }

    @Override
    public List<String> listUsers()
    {
        return users.users();
    }
}
