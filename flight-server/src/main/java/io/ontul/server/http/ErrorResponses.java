package io.ontul.server.http;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;

import io.javalin.http.Context;
import io.ontul.server.flight.ErrorMapping;
import io.ontul.spi.OntulException;

/**
 * Failures as HTTP answers: a status and the body {@code {"error": {"code", "category",
 * "message"}}}. The message is what a Flight SQL client gets for the same failure (the Flight
 * server's {@link ErrorMapping} makes it, and logs internal errors with their stack trace), the
 * code is the engine's error code, the category who is to fix it.
 */
public final class ErrorResponses
{
    private ErrorResponses() {}

    public static void send(Context context, Throwable error)
    {
        Answer answer = answer(error);
        if (context.res().isCommitted()) {
            // a stream that failed after its first bytes (an Arrow IPC result): cut the connection,
            // so that the client sees an error rather than a result that merely ends early
            org.eclipse.jetty.ee10.servlet.ServletContextRequest request = org.eclipse.jetty.ee10.servlet.ServletContextRequest.getServletContextRequest(context.req());
            if (request != null) {
                request.getServletChannel().abort(error);
            }
            return;
        }
        if (answer.status() == 401) {
            context.header("WWW-Authenticate", "Bearer realm=\"ontul\", Basic realm=\"ontul\"");
        }
        context.status(answer.status()).json(body(answer));
    }

    static Map<String, Object> body(Answer answer)
    {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", answer.code());
        error.put("category", answer.category());
        error.put("message", answer.message());
        return Map.of("error", error);
    }

    /** What to answer for {@code error}. */
    static Answer answer(Throwable error)
    {
        if (error instanceof HttpError http) {
            return new Answer(http.status(), http.code(), http.status() >= 500 ? "INTERNAL" : "USER_ERROR", http.getMessage());
        }
        FlightRuntimeException flight = ErrorMapping.toFlight(error);
        FlightStatusCode status = flight.status().code();
        String message = flight.status().description();
        if (error instanceof OntulException ontul) {
            return new Answer(httpStatus(status), ontul.code().name(), ontul.category().name(), message);
        }
        return new Answer(httpStatus(status), status.name(), status == FlightStatusCode.INTERNAL ? "INTERNAL" : "USER_ERROR", message);
    }

    static int httpStatus(FlightStatusCode status)
    {
        return switch (status) {
            case INVALID_ARGUMENT -> 400;
            case UNAUTHENTICATED -> 401;
            case UNAUTHORIZED -> 403;
            case NOT_FOUND -> 404;
            case ALREADY_EXISTS, CANCELLED -> 409;
            case UNIMPLEMENTED -> 501;
            case UNAVAILABLE -> 502;
            case RESOURCE_EXHAUSTED -> 503;
            case TIMED_OUT -> 504;
            default -> 500;
        };
    }

    record Answer(int status, String code, String category, String message) {}
}
