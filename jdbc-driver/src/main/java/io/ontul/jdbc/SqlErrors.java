package io.ontul.jdbc;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTimeoutException;
import java.util.Optional;

import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.driver.jdbc.shaded.org.apache.arrow.flight.FlightStatusCode;

/**
 * Turns whatever Arrow's driver throws (SQLExceptions without a SQLState, or unchecked Flight
 * and gRPC exceptions) into SQLExceptions classed by SQLState, keeping the server's message.
 */
final class SqlErrors
{
    static final String CONNECTION_FAILURE = "08001";
    static final String CONNECTION_LOST = "08006";
    static final String AUTHENTICATION = "28000";
    static final String INTERNAL = "XX000";

    private SqlErrors() {}

    static SQLException translate(Throwable failure)
    {
        if (failure instanceof SQLException sql && (sql.getSQLState() != null || sql instanceof SQLFeatureNotSupportedException)) {
            return sql;
        }
        Optional<FlightRuntimeException> flight = flightCause(failure);
        if (flight.isPresent()) {
            // the server's own message names the problem; Arrow's wrapping adds only "while preparing SQL"
            FlightStatusCode code = flight.get().status().code();
            String message = describe(flight.get());
            if (code == FlightStatusCode.TIMED_OUT) {
                return new SQLTimeoutException(message, sqlState(code), failure);
            }
            return new SQLException(message, sqlState(code), failure);
        }
        if (failure instanceof SQLException sql) {
            return sql;
        }
        return new SQLException("Internal error in the JDBC driver: " + failure, INTERNAL, failure);
    }

    /** A failure to open a connection, with the address in the message and a connection SQLState unless the server refused the credentials. */
    static SQLException atConnect(Throwable failure, OntulUrl url)
    {
        Optional<FlightRuntimeException> flight = flightCause(failure);
        String address = url.host() + ":" + url.port();
        if (flight.isPresent()) {
            FlightStatusCode code = flight.get().status().code();
            String description = describe(flight.get());
            if (code == FlightStatusCode.UNAUTHENTICATED || code == FlightStatusCode.UNAUTHORIZED) {
                return new SQLException("Cannot log in to Ontul at " + address + " as " + url.user().map(user -> "'" + user + "'").orElse("token user") + ": " + description,
                        AUTHENTICATION, failure);
            }
            if (code == FlightStatusCode.UNAVAILABLE) {
                return new SQLException("Cannot reach Ontul at " + address + (url.tls() ? " with TLS" : " without TLS") + ": " + networkProblem(flight.get())
                        + ". Is the server running there" + (url.tls() ? ", and does it serve TLS?" : ", and without TLS? (add tls=true for a TLS server)"),
                        CONNECTION_FAILURE, failure);
            }
            return new SQLException("Cannot connect to Ontul at " + address + ": " + description, sqlState(code), failure);
        }
        String message = failure.getMessage() == null ? failure.toString() : failure.getMessage();
        return new SQLException("Cannot connect to Ontul at " + address + ": " + message, CONNECTION_FAILURE, failure);
    }

    /** gRPC says "io exception" and a channel pipeline; the cause says what happened. */
    private static String networkProblem(FlightRuntimeException exception)
    {
        String problem = describe(exception).lines().findFirst().orElse("").strip();
        Throwable root = exception;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != exception && root.getMessage() != null) {
            problem += " (" + root.getClass().getSimpleName() + ": " + root.getMessage().lines().findFirst().orElse("").strip() + ")";
        }
        return problem;
    }

    private static String describe(FlightRuntimeException exception)
    {
        String description = exception.status().description();
        return description == null || description.isBlank() ? exception.status().code().toString() : description;
    }

    private static Optional<FlightRuntimeException> flightCause(Throwable failure)
    {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof FlightRuntimeException flight) {
                return Optional.of(flight);
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return Optional.empty();
    }

    private static String sqlState(FlightStatusCode code)
    {
        return switch (code) {
            case UNAUTHENTICATED -> AUTHENTICATION;
            case UNAUTHORIZED -> "42501";
            case INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS -> "42000";
            case UNIMPLEMENTED -> "0A000";
            case RESOURCE_EXHAUSTED -> "53000";
            case CANCELLED -> "57014";
            case TIMED_OUT -> "HYT00";
            case UNAVAILABLE -> CONNECTION_LOST;
            default -> INTERNAL;
        };
    }
}
