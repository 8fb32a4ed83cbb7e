package io.ontul.catalog.iceberg;

import java.io.UncheckedIOException;

import org.apache.iceberg.exceptions.RuntimeIOException;

import io.ontul.spi.ErrorCode;
import io.ontul.spi.OntulException;

/**
 * Turns exceptions of Iceberg, Hadoop and JDBC drivers into {@link OntulException}s whose message
 * names the catalog and what failed. Messages of the underlying exceptions are kept (they name
 * files, hosts and tables) but never the catalog's secrets, which Iceberg does not put in them.
 */
public final class IcebergErrors
{
    private IcebergErrors() {}

    /** An EXTERNAL error: the warehouse, the catalog database or the REST server failed. */
    public static OntulException external(IcebergConfig config, String what, Throwable cause)
    {
        if (cause instanceof OntulException ontul) {
            return ontul;
        }
        String original = describe(cause);
        String detail = original;
        for (String secret : config.secrets()) {
            detail = detail.replace(secret, secret.startsWith("jdbc:") || secret.contains("://") ? config.location() : "***");
        }
        Throwable logged = cause;
        if (!detail.equals(original)) {
            // the cause would carry the secret into the server log: keep its stack, not its text
            logged = new RuntimeException(cause.getClass().getName() + ": " + detail);
            logged.setStackTrace(cause.getStackTrace());
        }
        return new OntulException(ErrorCode.EXTERNAL_ERROR, "Iceberg catalog '%s' (%s) %s: %s".formatted(config.catalogName(), config.location(), what, detail), logged);
    }

    /** An EXTERNAL error about one table, e.g. a data file that cannot be read. */
    public static OntulException table(String qualifiedTableName, String what, Throwable cause)
    {
        if (cause instanceof OntulException ontul) {
            return ontul;
        }
        return new OntulException(ErrorCode.EXTERNAL_ERROR, "Iceberg table '%s': %s: %s".formatted(qualifiedTableName, what, describe(cause)), cause);
    }

    /** The first message of a cause chain, with the innermost one (the root cause) if it adds something. */
    public static String describe(Throwable throwable)
    {
        String first = null;
        String innermost = null;
        Throwable current = throwable;
        for (int depth = 0; current != null && depth < 20; depth++) {
            String message = current.getMessage();
            if (message != null && !message.isBlank()) {
                if (first == null && !(current instanceof RuntimeIOException) && !(current instanceof UncheckedIOException)) {
                    first = message;
                }
                innermost = current.getClass().getSimpleName() + ": " + message;
            }
            current = current.getCause() == current ? null : current.getCause();
        }
        if (first == null) {
            return innermost == null ? throwable.getClass().getSimpleName() : innermost;
        }
        if (innermost == null || first.contains(innermost.substring(innermost.indexOf(": ") + 2))) {
            return first;
        }
        return first + " (" + innermost + ")";
    }
}
