package io.ontul.server.flight;

import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.ontul.engine.api.ErrorMessages;
import io.ontul.spi.OntulException;

/**
 * Translates failures into the Flight status a client sees: the engine's message with a status
 * code chosen from its {@link io.ontul.spi.ErrorCode}; never {@code UNKNOWN}, never a stack
 * trace. Internal errors are logged here, with their stack trace, so the query id in the
 * client's message leads to the log entry.
 */
public final class ErrorMapping
{
    private static final Logger LOG = LoggerFactory.getLogger(ErrorMapping.class);

    /** Characters of an error message sent to a client: a few KB, whatever the statement quoted. */
    static final int MAX_DESCRIPTION = 3000;

    /** The trailer that names the {@link io.ontul.spi.ErrorCode} of a failure. */
    public static final String ERROR_CODE_HEADER = "x-ontul-error-code";

    private ErrorMapping() {}

    public static FlightRuntimeException toFlight(Throwable error)
    {
        if (error instanceof FlightRuntimeException flight) {
            return flight.status().code() == org.apache.arrow.flight.FlightStatusCode.UNKNOWN
                    ? internal(flight)
                    : flight;
        }
        if (error instanceof OntulException ontul) {
            // the code travels too, so that a coordinator fails its query as the worker's fragment failed
            org.apache.arrow.flight.ErrorFlightMetadata metadata = new org.apache.arrow.flight.ErrorFlightMetadata();
            metadata.insert(ERROR_CODE_HEADER, ontul.code().name());
            return status(ontul).withDescription(description(ontul)).withMetadata(metadata).toRuntimeException();
        }
        return internal(error);
    }

    /** The message, cut to a few KB, then the id of the query that failed, for finding it in system.runtime.queries and the log. */
    static String description(OntulException error)
    {
        String message = error.getMessage();
        String query = error.queryId().map(id -> " (query " + id + ")").orElse("");
        if (message.endsWith(query)) {
            // internal errors name their query already
            query = "";
        }
        return ErrorMessages.abbreviate(message, MAX_DESCRIPTION - query.length()) + query;
    }

    static CallStatus status(OntulException error)
    {
        return switch (error.category()) {
            case USER_ERROR -> switch (error.code()) {
                case NOT_FOUND -> CallStatus.NOT_FOUND;
                case ALREADY_EXISTS -> CallStatus.ALREADY_EXISTS;
                // UNAUTHORIZED is Flight's name for gRPC's PERMISSION_DENIED
                case PERMISSION_DENIED -> CallStatus.UNAUTHORIZED;
                case QUERY_CANCELLED -> CallStatus.CANCELLED;
                default -> CallStatus.INVALID_ARGUMENT;
            };
            case INSUFFICIENT_RESOURCES -> CallStatus.RESOURCE_EXHAUSTED;
            case EXTERNAL -> {
                // a storage or remote system failing is the operator's to fix: logged without a stack trace
                LOG.warn("{}", error.getMessage());
                yield CallStatus.UNAVAILABLE;
            }
            case INTERNAL -> {
                LOG.error("{}", error.getMessage(), error);
                yield CallStatus.INTERNAL;
            }
        };
    }

    private static FlightRuntimeException internal(Throwable error)
    {
        LOG.error("Internal error in the Flight SQL server", error);
        return CallStatus.INTERNAL
                .withDescription(ErrorMessages.abbreviate("Internal error (this is a bug in Ontul): " + error, MAX_DESCRIPTION))
                .toRuntimeException();
    }
}
