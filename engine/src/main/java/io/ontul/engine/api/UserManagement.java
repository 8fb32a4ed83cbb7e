package io.ontul.engine.api;

import java.util.List;

/**
 * Where the users live that {@code CREATE USER}, {@code ALTER USER}, {@code DROP USER} and
 * {@code SHOW USERS} change and list. The Ontul server implements it over its password file and
 * hands it to {@link io.ontul.engine.api.Engine#create(io.ontul.engine.api.EngineConfig, UserManagement)};
 * an engine without one rejects those statements.
 *
 * <p>Protocol: the engine checks permissions ({@link #isAdmin}) and the password rules, and turns
 * the results below into SQL errors; an implementation only stores. Each method:
 * <ul>
 * <li>MUST be thread-safe, and each change atomic: of two sessions creating the same user at
 * once, one gets {@code true} and the other {@code false};</li>
 * <li>MUST have made a change durable (surviving a restart) when it returns {@code true};</li>
 * <li>MUST keep only a slow salted hash of a password, and MUST NOT log a password or put it
 * in an exception message.</li>
 * </ul>
 * User names arrive as the parser gives them: lower-cased unless quoted in the SQL; an
 * implementation compares them exactly.
 */
public interface UserManagement
{
    /** The fewest characters (code points) a password may have; the engine refuses shorter ones. */
    int MINIMUM_PASSWORD_LENGTH = 8;

    /**
     * Whether {@code user} may create, alter, drop and list users. For now exactly one user is
     * an administrator: {@code admin}, the user the server creates at its first start. The engine
     * never asks to drop an administrator.
     */
    boolean isAdmin(String user);

    /** Creates {@code user} with {@code password}; returns false, changing nothing, when the user exists. */
    boolean createUser(String user, String password);

    /** Replaces the password of {@code user}; returns false, changing nothing, when there is no such user. */
    boolean setPassword(String user, String password);

    /** Removes {@code user}; returns false when there is no such user. */
    boolean dropUser(String user);

    /** The users, sorted by name. */
    List<String> listUsers();
}
