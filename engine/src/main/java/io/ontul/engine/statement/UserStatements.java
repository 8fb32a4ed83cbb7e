package io.ontul.engine.statement;

import static io.ontul.engine.statement.StatementContext.position;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.ontul.engine.api.CatalogBrowser;
import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.api.UserManagement;
import io.ontul.engine.sql.tree.SqlAlterUser;
import io.ontul.engine.sql.tree.SqlCreateUser;
import io.ontul.engine.sql.tree.SqlDropUser;
import io.ontul.engine.sql.tree.SqlShowUsers;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Runs CREATE USER, ALTER USER, DROP USER and SHOW USERS for one session against the engine's
 * {@link UserManagement}. Administrators may run all four; any user may change their own
 * password. Passwords must have at least {@value UserManagement#MINIMUM_PASSWORD_LENGTH} characters. No message
 * raised here contains a password.
 */
final class UserStatements
{
    QueryResult create(SqlCreateUser create, StatementContext context)
    {
        UserManagement users = users(context, create);
        requireAdmin(users, context, "CREATE USER", create.getParserPosition());
        if (create.getReplace()) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, position(create.getParserPosition())
                    + "CREATE OR REPLACE USER is not supported: use ALTER USER name PASSWORD '...' to change a password");
        }
        String user = userName(create.name());
        checkPassword(create.password(), create.name().getParserPosition());
        if (!users.createUser(user, create.password()) && !create.isIfNotExists()) {
            throw new OntulException(ErrorCode.ALREADY_EXISTS, position(create.name().getParserPosition()) + "User '" + user + "' already exists");
        }
        return context.updateCount(0);
    }

    QueryResult alter(SqlAlterUser alter, StatementContext context)
    {
        UserManagement users = users(context, alter);
        String user = userName(alter.name());
        Session session = context.session();
        if (!user.equals(session.user()) && !users.isAdmin(session.user())) {
            throw new OntulException(ErrorCode.PERMISSION_DENIED, position(alter.getParserPosition())
                    + "Permission denied: changing the password of user '" + user + "' needs an administrator; user '"
                    + session.user() + "' may change only its own");
        }
        checkPassword(alter.password(), alter.name().getParserPosition());
        if (!users.setPassword(user, alter.password())) {
            throw notFound(user, alter.name().getParserPosition());
        }
        return context.updateCount(0);
    }

    QueryResult drop(SqlDropUser drop, StatementContext context)
    {
        UserManagement users = users(context, drop);
        requireAdmin(users, context, "DROP USER", drop.getParserPosition());
        String user = userName(drop.name());
        if (users.isAdmin(user)) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(drop.name().getParserPosition())
                    + "User '" + user + "' is an administrator and cannot be dropped");
        }
        if (!users.dropUser(user) && !drop.isIfExists()) {
            throw notFound(user, drop.name().getParserPosition());
        }
        return context.updateCount(0);
    }

    QueryResult show(SqlShowUsers show, StatementContext context)
    {
        UserManagement users = users(context, show);
        requireAdmin(users, context, "SHOW USERS", show.getParserPosition());
        List<List<String>> rows = users.listUsers().stream()
                .filter(user -> show.likePattern().isEmpty() || CatalogBrowser.like(show.likePattern().get(), null).test(user))
                .sorted()
                .map(List::of)
                .toList();
        return context.text(List.of("user"), rows);
    }

    /** The engine's users: the server's; an embedded engine has none. */
    private static UserManagement users(StatementContext context, SqlNode statement)
    {
        return context.engine().userManagement()
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_SUPPORTED,
                        position(statement.getParserPosition()) + "User management needs the Ontul server (bin/ontul start)"));
    }

    private static void requireAdmin(UserManagement users, StatementContext context, String statement, SqlParserPos pos)
    {
        Session session = context.session();
        if (!users.isAdmin(session.user())) {
            throw new OntulException(ErrorCode.PERMISSION_DENIED, position(pos)
                    + "Permission denied: " + statement + " needs an administrator; user '" + session.user() + "' is not one");
        }
    }

    /** The name as the parser gives it; rejects names that could never log in. */
    private static String userName(SqlIdentifier name)
    {
        String user = name.getSimple();
        if (user.isEmpty()) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(name.getParserPosition()) + "User name must not be empty");
        }
        if (user.indexOf(':') >= 0 || user.chars().anyMatch(Character::isISOControl)) {
            // HTTP basic authentication separates the user from the password with the first ':'
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(name.getParserPosition())
                    + "User name '" + user + "' must not contain ':' or control characters");
        }
        return user;
    }

    private static void checkPassword(String password, SqlParserPos pos)
    {
        if (password.codePointCount(0, password.length()) < UserManagement.MINIMUM_PASSWORD_LENGTH) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(pos)
                    + "Password must have at least " + UserManagement.MINIMUM_PASSWORD_LENGTH + " characters");
        }
    }

    private static OntulException notFound(String user, SqlParserPos pos)
    {
        return new OntulException(ErrorCode.NOT_FOUND, position(pos) + "User '" + user + "' does not exist");
    }

}
