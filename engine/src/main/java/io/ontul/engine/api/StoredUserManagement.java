package io.ontul.engine.api;

import static java.util.Objects.requireNonNull;

import java.util.List;

import io.ontul.engine.security.Grants;
import io.ontul.engine.security.UserStore;


/**
 * CREATE/ALTER/DROP USER and SHOW USERS over the engine's {@link UserStore}: the users that log
 * in ({@link UserAccounts}) are the users these statements change. Administrators are the users
 * holding the admin role ({@link Grants}: the server's first user, and whoever it is granted to);
 * a dropped user's roles and privileges go with it.
 */
final class StoredUserManagement
        implements UserManagement
{
    private final UserStore users;
    private final Grants grants;

    StoredUserManagement(UserStore users, Grants grants)
    {
        this.users = requireNonNull(users, "users is null");
        this.grants = requireNonNull(grants, "grants is null");
    }

    @Override
    public boolean isAdmin(String user)
    {
        return grants.isAdmin(user);
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
        if (!users.drop(user)) {
            return false;
        }
        grants.userDropped(user);
        return true;
    }

    @Override
    public List<String> listUsers()
    {
        return users.users();
    }
}
