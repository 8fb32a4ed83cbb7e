package io.ontul.engine.api;

import static java.util.Objects.requireNonNull;

import java.util.List;

import io.ontul.engine.security.UserStore;


/**
 * CREATE/ALTER/DROP USER and SHOW USERS over the engine's {@link UserStore}: the users that log
 * in ({@link UserAccounts}) are the users these statements change. One user is the administrator
 * (the server passes {@code OntulServer.ADMIN_USER}).
 */
final class StoredUserManagement
        implements UserManagement
{
    private final UserStore users;
    private final String administrator;

    StoredUserManagement(UserStore users, String administrator)
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
