package io.ontul.catalog.jdbc;

import static java.util.Objects.requireNonNull;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;

import io.ontul.catalog.jdbc.dialect.JdbcDialect;
import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Turns driver and pool failures into {@link OntulException}s: failures to connect name the
 * server ({@code host:port}) and the cause, a wrong password says whose, bad data on INSERT is a
 * TYPE_MISMATCH, everything else an EXTERNAL_ERROR with the database's message. Every message
 * passes through {@link #scrub} so the password never reaches a user or a log.
 */
final class JdbcErrors
{
    private static final int MIN_SCRUBBED_PASSWORD_LENGTH = 3;

    private final String catalogName;
    private final JdbcDialect dialect;
    private final String server;
    private final Optional<String> user;
    private final Optional<String> password;

    JdbcErrors(JdbcConfig config, JdbcDialect dialect)
    {
        this.catalogName = config.catalogName();
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.server = config.url().serverAddress(dialect.defaultPort()).map(address -> dialect.name() + " at " + address).orElse(dialect.name());
        this.user = config.user();
        this.password = config.password().filter(text -> text.length() >= MIN_SCRUBBED_PASSWORD_LENGTH);
    }

    /** The database as messages name it: {@code PostgreSQL at 127.0.0.1:5432}. */
    String server()
    {
        return server;
    }

    /** A failure to get a connection, from the driver or the pool. */
    OntulException connectionFailure(Throwable failure)
    {
        return new OntulException(ErrorCode.EXTERNAL_ERROR, scrub("Cannot connect to %s for catalog '%s': %s".formatted(server, catalogName, connectionCause(failure))), failure);
    }

    /**
     * A failure of a statement.
     *
     * @param action what was being done, as the start of a sentence: {@code Cannot read table 'pg.public.orders'}
     */
    OntulException failure(String action, SQLException exception)
    {
        SQLException cause = exception instanceof BatchUpdateException && exception.getNextException() != null ? exception.getNextException() : exception;
        String state = Optional.ofNullable(cause.getSQLState()).orElse("");
        // 08: connection exceptions, 28: authentication, 57P0x: the server shuts down or is starting
        if (state.startsWith("08") || state.startsWith("28") || state.startsWith("57P0")) {
            return connectionFailure(cause);
        }
        ErrorCode code;
        if (state.startsWith("22")) {
            code = ErrorCode.TYPE_MISMATCH;
        }
        else if (state.startsWith("23")) {
            code = ErrorCode.INVALID_ARGUMENT;
        }
        else if (state.equals("57014")) {
            code = ErrorCode.QUERY_CANCELLED;
        }
        else {
            code = ErrorCode.EXTERNAL_ERROR;
        }
        return new OntulException(code, scrub("%s: %s (%s)".formatted(action, dialect.errorMessage(cause), server)), exception);
    }

    /** The text with the password, if it occurs, replaced by {@code ****}. */
    String scrub(String text)
    {
        return password.map(secret -> text.replace(secret, "****")).orElse(text);
    }

    private String connectionCause(Throwable failure)
    {
        SQLException deepestSql = null;
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SQLException sqlException) {
                String state = Optional.ofNullable(sqlException.getSQLState()).orElse("");
                if (state.startsWith("28")) {
                    return "authentication failed for user '" + user.orElse("(none)") + "'";
                }
                deepestSql = sqlException;
            }
            if (cause instanceof ConnectException || cause instanceof NoRouteToHostException) {
                return Optional.ofNullable(cause.getMessage()).orElse("connection refused");
            }
            if (cause instanceof UnknownHostException) {
                return "unknown host " + cause.getMessage();
            }
            if (cause instanceof SocketTimeoutException) {
                return "connection timed out";
            }
        }
        if (failure instanceof SQLTransientConnectionException && failure.getCause() == null) {
            // HikariCP's timeout with no connection failure behind it: the pool is busy
            return "no connection became free in time; every connection of the pool is in use (raise connection-pool.max-size)";
        }
        if (deepestSql != null) {
            return dialect.errorMessage(deepestSql);
        }
        return Optional.ofNullable(failure.getMessage()).orElse(failure.getClass().getSimpleName());
    }
}
