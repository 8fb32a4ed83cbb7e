package io.ontul.engine.security;

import static java.util.Objects.requireNonNull;

import java.util.List;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

import io.ontul.engine.api.QueryResult;
import io.ontul.engine.api.Session;
import io.ontul.engine.api.UserManagement;
import io.ontul.engine.execution.StaticResult;
import io.ontul.engine.expression.LikeMatcher;
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
public final class UserStatements
{
    private final Session session;
    private final String queryId;

    public UserStatements(Session session, String queryId)
    {
        this.session = requireNonNull(session, "session is null");
        this.queryId = requireNonNull(queryId, "queryId is null");
    }

    public static boolean isUserStatement(SqlNode statement)
    {
        return statement instanceof SqlCreateUser
                || statement instanceof SqlAlterUser
                || statement instanceof SqlDropUser
                || statement instanceof SqlShowUsers;
    }

    public QueryResult execute(SqlNode statement)
    {
        UserManagement users = session.engine().userManagement()
                .orElseThrow(() -> new OntulException(ErrorCode.NOT_SUPPORTED,
                        position(statement.getParserPosition()) + "User management needs the Ontul server (bin/ontul start)"));
        if (statement instanceof SqlCreateUser create) {
            return create(users, create);
        }
        if (statement instanceof SqlAlterUser alter) {
            return alter(users, alter);
        }
        if (statement instanceof SqlDropUser drop) {
            return drop(users, drop);
        }
        if (statement instanceof SqlShowUsers show) {
            return show(users, show);
        }
        throw new IllegalArgumentException("Not a user statement: " + statement.getKind());
    }

    private QueryResult create(UserManagement users, SqlCreateUser create)
    {
        requireAdmin(users, "CREATE USER", create.getParserPosition());
        if (create.getReplace()) {
            throw new OntulException(ErrorCode.NOT_SUPPORTED, position(create.getParserPosition())
                    + "CREATE OR REPLACE USER is not supported: use ALTER USER name PASSWORD '...' to change a password");
        }
        String user = userName(create.name());
        checkPassword(create.password(), create.name().getParserPosition());
        if (!users.createUser(user, create.password()) && !create.isIfNotExists()) {
            throw new OntulException(ErrorCode.ALREADY_EXISTS, position(create.name().getParserPosition()) + "User '" + user + "' already exists");
        }
        return done();
    }

    private QueryResult alter(UserManagement users, SqlAlterUser alter)
    {
        String user = userName(alter.name());
        if (!user.equals(session.user()) && !users.isAdmin(session.user())) {
            throw new OntulException(ErrorCode.PERMISSION_DENIED, position(alter.getParserPosition())
                    + "Permission denied: changing the password of user '" + user + "' needs an administrator; user '"
                    + session.user() + "' may change only its own");
        }
        checkPassword(alter.password(), alter.name().getParserPosition());
        if (!users.setPassword(user, alter.password())) {
            throw notFound(user, alter.name().getParserPosition());
        }
        return done();
    }

    private QueryResult drop(UserManagement users, SqlDropUser drop)
    {
        requireAdmin(users, "DROP USER", drop.getParserPosition());
        String user = userName(drop.name());
        if (users.isAdmin(user)) {
            throw new OntulException(ErrorCode.INVALID_ARGUMENT, position(drop.name().getParserPosition())
                    + "User '" + user + "' is an administrator and cannot be dropped");
        }
        if (!users.dropUser(user) && !drop.isIfExists()) {
            throw notFound(user, drop.name().getParserPosition());
        }
        return done();
    }

    private QueryResult show(UserManagement users, SqlShowUsers show)
    {
        requireAdmin(users, "SHOW USERS", show.getParserPosition());
        List<List<String>> rows = users.listUsers().stream()
                .filter(user -> show.likePattern().isEmpty() || LikeMatcher.compile(show.likePattern().get(), null).matches(user))
                .sorted()
                .map(List::of)
                .toList();
        return StaticResult.text(queryId, session.engine().rootAllocator(), List.of("user"), rows);
    }

    private void requireAdmin(UserManagement users, String statement, SqlParserPos pos)
    {
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

    private QueryResult done()
    {
        return StaticResult.updateCount(queryId, session.engine().rootAllocator(), 0);
    }

    private static String position(SqlParserPos pos)
    {
        return pos == null || pos.getLineNum() == 0 ? "" : "line " + pos.getLineNum() + ":" + pos.getColumnNum() + ": ";
    }
}
